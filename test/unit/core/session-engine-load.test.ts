// The session engine is code the session object loads with `import()`: what a user sees while it downloads, when it
// arrives late, and when its download fails. The download is held back (or failed) at the module boundary; the
// engine, the proxy and the transport are the real ones of the other session tests (fake proxy and transport).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AvatarSession } from '../../../src/core';
import { preloadEngine } from '../../../src/core/internal';
import { createFakeProxy } from '../../../src/testing';
import { harness, settle, until, type Harness, useFakeClock } from './helpers';

const ENGINE = '../../../src/core/session/session';

/** Holds the engine's download until `arrive()`; `fail()` makes this download fail instead. */
function slowEngine() {
  let open!: () => void;
  let refuse!: (e: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    open = resolve;
    refuse = reject;
  });
  vi.doMock(ENGINE, async (importOriginal) => {
    await gate;
    return importOriginal();
  });
  return { arrive: () => open(), fail: () => refuse(new TypeError('Failed to fetch dynamically imported module')) };
}

let h: Harness | undefined;
beforeEach(() => void useFakeClock());
afterEach(() => {
  h?.session.dispose({ end: false });
  h = undefined;
  vi.doUnmock(ENGINE);
  vi.resetModules();
  vi.useRealTimers();
});

const activeProxy = () => createFakeProxy({ initialStatus: 'ACTIVE' });
const state = (s: AvatarSession) => s.store.getState();

describe('the session engine loads on demand', () => {
  it('a Start click before the engine arrived still starts the session, once, when it arrives', async () => {
    const engine = slowEngine();
    h = harness({ proxy: activeProxy() });
    const first = h.session.start();
    const second = h.session.start(); // a double click shares the one start
    expect(second).toBe(first);
    expect(state(h.session).phase).toBe('idle'); // nothing to write the phase yet
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(0);
    engine.arrive();
    await first;
    expect(state(h.session).phase).toBe('active');
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(1);
    expect(h.session.getClientSession()?.session_id).toBeTruthy();
  });

  it('volume, speaker mute and keep-alive set before the engine land in the store at once and are kept by the start', async () => {
    const engine = slowEngine();
    h = harness({ proxy: activeProxy() });
    h.session.setVolume(0.4);
    h.session.setSpeakerMuted(true);
    h.session.setKeepAlive(true);
    h.session.setVolume(Number.NaN); // keeps the volume, as before
    expect(state(h.session).media).toMatchObject({ volume: 0.4, speakerMuted: true });
    expect(state(h.session).keepAlive).toBe(true);
    const started = h.session.start();
    engine.arrive();
    await started;
    expect(state(h.session).media).toMatchObject({ volume: 0.4, speakerMuted: true });
    expect(state(h.session).keepAlive).toBe(true);
  });

  it('before the engine: no client session, no call stats, and end() has nothing to end', async () => {
    slowEngine();
    h = harness();
    expect(h.session.getClientSession()).toBeNull();
    expect(await h.session.getCallStats()).toBeNull();
    await h.session.end();
    expect(state(h.session).phase).toBe('idle');
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(0);
  });

  it('handlers subscribed before the engine arrived get its events', async () => {
    const engine = slowEngine();
    h = harness({ proxy: activeProxy() });
    const seen: string[] = [];
    h.session.on('bot_ready', (e) => seen.push(e.type));
    const started = h.session.start();
    engine.arrive();
    await started;
    h.transport.emitEvent({ type: 'bot_ready' });
    await until(() => seen.length === 1, 'bot_ready delivered');
    expect(seen).toEqual(['bot_ready']);
  });

  it('an end() called while the start waited for the engine ends that start (the start rejects with aborted)', async () => {
    const engine = slowEngine();
    h = harness({ proxy: activeProxy() });
    const started = settle(h.session.start());
    const ended = h.session.end();
    engine.arrive();
    expect(await started).toMatchObject({ code: 'aborted' });
    await ended;
    expect(state(h.session).phase).toBe('ended');
    expect(state(h.session).endReason).toBe('user');
  });

  it('a session disposed before the engine arrived cannot start', async () => {
    slowEngine();
    h = harness();
    h.session.dispose();
    await expect(h.session.start()).rejects.toMatchObject({ code: 'aborted' });
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(0);
  });

  it('a failed download rejects the start with transport_failed on the error channel; the next start loads it again', async () => {
    const engine = slowEngine();
    h = harness({ proxy: activeProxy() });
    const started = settle(h.session.start());
    engine.fail();
    expect(await started).toMatchObject({ code: 'transport_failed' });
    expect(h.errors).toEqual([expect.objectContaining({ code: 'transport_failed' })]);
    expect(state(h.session).phase).toBe('idle'); // nothing was created, so nothing to pay for or end
    vi.doUnmock(ENGINE);
    await h.session.start();
    expect(state(h.session).phase).toBe('active');
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(1);
  });

  it('preloadEngine (what a mounted provider calls) loads the engine, so start() writes its phase in the click', async () => {
    h = harness({ proxy: activeProxy() });
    await preloadEngine(h.session);
    void settle(h.session.start());
    expect(state(h.session).phase).toBe('creating');
  });
});
