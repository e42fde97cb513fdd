import { vi } from 'vitest';
import { createAvatarSession, type AvatarSession, type AvatarSessionOptions, type Phase, type SessionState } from '../../../src/core';
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
  /** Every store write whose fields broke what its phase's variant of `SessionState` promises (should stay empty). */
  violations: string[];
}

/**
 * What the phase of `s` promises of its other fields (the variants of `SessionState`), broken: empty when it holds.
 * The types promise it; this checks that the engine keeps the promise at run time, write by write.
 */
export function phaseViolations(s: SessionState): string[] {
  const out: string[] = [];
  const want = (ok: boolean, what: string) => ok || out.push(`${s.phase}: ${what}`);
  const running = ['creating', 'queued', 'connecting', 'active'].includes(s.phase);
  const over = ['ending', 'ended', 'error'].includes(s.phase);
  if (s.phase === 'idle') {
    want(s.sessionId === null && s.sessionStatus === null && s.startedAt === null, 'nothing known before a start');
  } else want(typeof s.startedAt === 'number', 'startedAt is a number');
  if (running || s.phase === 'idle') want(s.error === null && s.endReason === null, 'no error and no endReason');
  if (running && s.phase !== 'creating') {
    want(typeof s.sessionId === 'string', 'sessionId is a string');
    want(s.sessionStatus === null || s.sessionStatus === 'QUEUED' || s.sessionStatus === 'ACTIVE', 'a running status');
  }
  if (s.phase === 'creating') want(s.sessionStatus === null && s.queuedAt === null && s.activeAt === null, 'no status yet');
  if (s.phase === 'queued') want(s.sessionStatus === 'QUEUED' && typeof s.queuedAt === 'number' && s.activeAt === null, 'QUEUED');
  if (s.phase === 'connecting') want(s.activeAt === null, 'not active yet');
  if (s.phase === 'active') want(typeof s.activeAt === 'number', 'activeAt is a number');
  if (over) want(s.endReason !== null, 'endReason is set');
  if (s.phase === 'error') want(s.error !== null, 'error is set');
  else if (s.phase === 'ending' || s.phase === 'ended') want(s.error === null, 'no error');
  return out;
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
  const violations: string[] = [];
  session.store.subscribe((s) => violations.push(...phaseViolations(s)));
  return { session, proxy, transport, loader, phases, errors, violations };
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
