import { vi } from 'vitest';
import { createAvatarSession, type AvatarSession, type AvatarSessionOptions, type Phase } from '../../../src/core';
import { FakeTransport, createFakeProxy, fakeTransportLoader, type FakeProxy } from '../../../src/testing';

/**
 * Waits until `check` returns truthy. Under a fake `setTimeout` (the session tests) it advances the fake clock 1 ms at a
 * time, running what the session scheduled, up to `timeoutMs` of fake time; with real timers it polls every 2 ms up
 * to `timeoutMs` of real time.
 */
export async function until<T>(check: () => T | Promise<T>, what = 'condition', timeoutMs = 3000): Promise<NonNullable<T>> {
  // Only when setTimeout itself is faked (the fake timers mark their functions with `clock`).
  const fake = vi.isFakeTimers() && 'clock' in setTimeout;
  const end = performance.now() + timeoutMs;
  for (let waited = 0; ;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (fake ? waited > timeoutMs : performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    if (fake) {
      await vi.advanceTimersByTimeAsync(1);
      waited += 1;
    } else await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * Fake timers for a session test (timeouts, polls, backoff): the fake clock jumps to the next timer whenever the test
 * waits, so nothing waits for real time; microtasks and `performance` stay real.
 */
export const useFakeClock = () =>
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }).setTimerTickMode('nextTimerAsync');

export interface Harness {
  session: AvatarSession;
  proxy: FakeProxy;
  transport: FakeTransport;
  loader: ReturnType<typeof fakeTransportLoader>;
  phases: Phase[];
  errors: { code: string; detail: string }[];
}

/** A real engine over the fake proxy and a fake transport, recording every phase change and reported error. */
export function harness(opts: Partial<AvatarSessionOptions> & { fake?: FakeTransport; proxy?: FakeProxy } = {}): Harness {
  const { fake: transport = new FakeTransport(), proxy = createFakeProxy(), ...rest } = opts;
  const loader = fakeTransportLoader(transport);
  const session = createAvatarSession({
    proxyUrl: 'http://proxy.test/api/avatar',
    flow: { kind: 'room', agentId: 'agent-1' },
    fetch: proxy.fetch,
    loadTransport: loader,
    pollIntervalMs: 5,
    maxPollIntervalMs: 10,
    endTimeoutMs: 1000,
    endOnUnload: false,
    ...rest,
  });
  const phases: Phase[] = [session.store.getState().phase];
  session.store.subscribe((s, prev) => {
    if (s.phase !== prev.phase) phases.push(s.phase);
  });
  const errors: { code: string; detail: string }[] = [];
  session.onError((e) => errors.push({ code: e.code, detail: e.detail }));
  return { session, proxy, transport, loader, phases, errors };
}

/** Attaches a handler at once (no unhandled rejection) and resolves with the error, or 'ok'. */
export const settle = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => 'ok',
    (e: unknown) => e,
  );

/** A live video track as a transport hands it over (`FakeTransport.emitTrack('video', …)`); nothing plays it here. */
/**
 * A live remote video track. `muted: true` is one that came while the room was joining and has no packets yet:
 * `unmute()` delivers its first packets, as the browser reports them.
 */
export const fakeVideoTrack = ({ muted = false } = {}) => {
  const track = Object.assign(new EventTarget(), { kind: 'video', id: 'v', readyState: 'live', muted });
  const unmute = () => {
    track.muted = false;
    track.dispatchEvent(new Event('unmute'));
  };
  return Object.assign(track as unknown as MediaStreamTrack, { unmute });
};
