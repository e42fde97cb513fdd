import type { LiveAiError } from '../errors';
import type { ProxyClient } from '../proxy-client';
import type { TransportLoader } from '../transports/types';
import { chooseTransport } from './phase';
import { aborted, obtainClient, toError, type Run } from './run';
import type { AvatarSessionOptions, SessionState } from './types';

/** Latest time after the create answer at which the status is polled even if the room join has not settled, ms. */
export const FIRST_POLL_LATEST_MS = 1000;

/** What a start needs from the engine. */
export interface StartDeps {
  options: AvatarSessionOptions;
  proxy: ProxyClient;
  loader: TransportLoader;
  /** Devices chosen before joining. */
  devices: ReadonlyMap<'audioinput' | 'videoinput', string>;
  get: () => Readonly<SessionState>;
  set: (patch: Partial<SessionState>) => void;
  /** Re-derives the phase. */
  commit: () => void;
  report: (error: LiveAiError) => void;
  onPageHide: () => void;
  /** Fails the session (the engine's teardown). */
  fail: (error: LiveAiError) => void;
}

/**
 * One start: obtains the session handle (create through the proxy, or check the attached one), starts polling,
 * joins the room, and resolves once the session is active. Rejects with the error that failed it, or `aborted`
 * when it was ended or disposed meanwhile (a session created while being cancelled is ended at once).
 */
export async function runStart(r: Run, d: StartDeps): Promise<void> {
  const { options } = d;
  try {
    const c = await obtainClient(options.flow, d.proxy, r.signal);
    if (r.signal.aborted) {
      // Created while being cancelled: end it so nobody pays for it.
      if (options.flow.kind !== 'attach') void d.proxy.end(c.session_id, c.client_token).catch(() => {});
      throw aborted();
    }
    r.client = c;
    const flowTransport = options.flow.kind === 'session' ? options.flow.request.transport_type : undefined;
    const transport = flowTransport ?? c.transport ?? chooseTransport(c, options.transport);
    d.set({ sessionId: c.session_id, transport, imageUrl: c.image_url ?? null });
    if (options.endOnUnload !== false) r.watchUnload(d.onPageHide);
    const micEnabled = options.micEnabled ?? d.get().media.micEnabled;
    const joined = r.join(c, { ...options, loader: d.loader, micEnabled, devices: d.devices, report: (e) => d.report(toError(e)) });
    // The first status poll waits until the room join settles (at most FIRST_POLL_LATEST_MS): its answer and the
    // re-render it causes would otherwise compete with the join for the main thread. Meanwhile `bot_ready` or the
    // avatar's video track tell that it is live.
    let polling = false;
    const startPolling = () => {
      if (polling) return;
      polling = true;
      clearTimeout(latest);
      if (!r.signal.aborted) r.poller.start();
    };
    const latest = setTimeout(startPolling, FIRST_POLL_LATEST_MS);
    joined
      .finally(startPolling)
      .then(() => d.commit())
      .catch((e) => void (r.signal.aborted || d.fail(toError(e))));
    await r.active;
  } catch (e) {
    if (r.signal.aborted) throw r.reason ?? aborted();
    const error = toError(e);
    d.fail(error);
    throw error;
  }
}
