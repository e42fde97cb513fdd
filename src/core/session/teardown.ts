import type { LiveAiError } from '../errors';
import type { ProxyClient } from '../proxy-client';
import type { Input } from './machine';
import { aborted, isFinal, toError, type Run } from './run';
import type { EndReason, SessionFlow, SessionState } from './types';

/** What ending a run needs from the engine. */
export interface TeardownDeps {
  /** Moves the state machine; false when the input is not allowed now. */
  move: (input: Input, patch?: Partial<SessionState>) => boolean;
  get: () => Readonly<SessionState>;
  report: (error: LiveAiError) => void;
  proxy: ProxyClient;
  flow: SessionFlow['kind'];
  /** How long to wait for the final status and cost, ms. */
  endTimeoutMs: number;
}

/**
 * The only way out of a running session. With `error` it is a failure (phase `error` at once), else an end
 * (phase `ending`, then `ended`). Stops the start, leaves the room, ends the session at the service when
 * `terminate` and it has not ended on its own (`force-end` in a room, then the proxy's `/end`; an attached session
 * that failed is left to its owner), then waits up to `endTimeoutMs` for the final status and cost (so the status
 * shown is the service's, e.g. `COMPLETED` after a failed join). Resolves when all that is done; nothing happens
 * when the machine does not allow the move (already ending or over).
 */
export async function endRun(
  r: Run | null,
  reason: EndReason,
  how: { terminate: boolean; error?: LiveAiError },
  d: TeardownDeps,
): Promise<void> {
  const { error } = how;
  if (!d.move(error ? 'fail' : 'end', error ? { error, endReason: reason } : { endReason: reason })) return;
  r?.cancel(error ?? aborted());
  r?.quiet();
  if (error) d.report(error);
  const c = r?.client;
  const final = () => isFinal(d.get().sessionStatus);
  let endError: LiveAiError | null = null;
  if (error) void r?.leave();
  if (r && c && how.terminate && !final() && !(error && d.flow === 'attach')) {
    if (!error && d.flow === 'room' && r.transport && d.get().media.connection === 'connected') {
      await r.transport.sendAppMessage({ event: 'force-end' }).catch(() => {});
    }
    await d.proxy.end(c.session_id, c.client_token).catch((e) => d.report((endError = toError(e))));
  }
  await r?.leave();
  if (r && c && error?.code !== 'not_found') await r.finalStatus(final, d.endTimeoutMs);
  r?.poller.stop();
  if (endError && !final()) d.move('settleFailed', { error: endError });
  else d.move('settled');
}
