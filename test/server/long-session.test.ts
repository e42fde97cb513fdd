// @vitest-environment node
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveAiError } from '../../src/core/errors';
import { createFakeProxy, createTestSession, type TestSession } from '../../src/testing/index';

/**
 * Issue 7, long session: one session (real engine over FakeTransport + fake proxy) receives 10 000 events —
 * transcriptions, image events and malformed messages. Memory must stay bounded: transcript capped at
 * `maxTranscriptLines`, store size flat, no listener growth, heap growth after GC under a generous bound.
 * Lives in the `server` project because it needs a plain Node environment (and `gc`).
 */
const EVENTS = 10_000;
const MAX_LINES = 50;

/** `gc()` without --expose-gc: turn the flag on at run time and fetch `gc` from a fresh context. */
function getGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Approximate retained size of the serialisable part of the store, bytes. */
const storeBytes = (s: TestSession) => {
  const { transcript, image, lastEvent, sessionStatus, phase } = s.store.getState();
  return JSON.stringify({ transcript, image, lastEvent, sessionStatus, phase }).length;
};

let session: TestSession | undefined;
afterEach(() => session?.dispose({ end: false }));

async function activeSession(): Promise<TestSession> {
  const s = createTestSession({ maxTranscriptLines: MAX_LINES, proxy: createFakeProxy({ queueMs: 0 }) });
  await s.start();
  const deadline = Date.now() + 10_000;
  while (s.store.getState().phase !== 'active') {
    if (Date.now() > deadline || s.store.getState().phase === 'error')
      throw new Error(`session never became active: ${s.store.getState().phase}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return s;
}

/** The i-th message of the stream: mostly transcriptions, some image events, some malformed messages. */
function message(i: number): unknown {
  const text = `line ${i} ${'x'.repeat(2_000)}`;
  switch (i % 10) {
    case 0:
      return { type: 'image_change_requested' };
    case 1:
      return { type: 'image_created' };
    case 2:
      return { type: 'image_change_complete' };
    case 3:
      return '{"type": "user_transcription", "transcription": '; // truncated JSON
    case 4:
      return { type: 'agent_transcription' }; // missing field
    case 5:
      return new TextEncoder().encode(JSON.stringify({ type: 'no_such_event', blob: 'y'.repeat(500) }));
    case 6:
      return { type: 'user_transcription', transcription: text };
    default:
      return JSON.stringify({ type: 'agent_transcription', transcription: text });
  }
}

describe('a long session', () => {
  it('stays bounded over 10 000 events (transcript, store, listeners, heap)', async () => {
    const gc = getGc();
    session = await activeSession();
    const s = session;
    const errors: LiveAiError[] = [];
    const offError = s.on('error', (e) => errors.push(e));
    let seen = 0;
    const offAll = s.on('*', () => (seen += 1));
    const listenersBefore = s.transport.listenerCount();

    const feed = async (from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        s.transport.emitRaw(message(i));
        if (i % 500 === 0) await new Promise((r) => setImmediate(r)); // let the store's subscribers run
      }
    };

    await feed(0, 1_000); // warm-up: caches, JIT, first allocations
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const storeAfterWarmup = storeBytes(s);
    await feed(1_000, EVENTS);
    gc();
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;

    const state = s.store.getState();
    expect(state.phase).toBe('active'); // malformed messages are reported, never fatal
    expect(state.transcript).toHaveLength(MAX_LINES);
    expect(state.transcript.at(-1)!.text).toMatch(/^line 9999 /);
    const ids = state.transcript.map((l) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(storeBytes(s)).toBeLessThan(storeAfterWarmup * 1.5);
    expect(seen).toBe(EVENTS * 0.7); // 7 valid events out of every 10
    expect(errors.length).toBe(EVENTS * 0.3);
    expect(errors.every((e) => e.code === 'invalid_event')).toBe(true);
    expect(s.transport.listenerCount()).toBe(listenersBefore);
    // ~9000 messages of ~2 kB went through (about 14 MB of text kept if they leaked). Generous bound.
    expect(heapGrowth).toBeLessThan(8 * 1024 * 1024);

    offAll();
    offError();
    s.dispose({ end: false });
    expect(s.transport.listenerCount()).toBeLessThanOrEqual(listenersBefore);
  });

  it('subscribing and unsubscribing 10 000 times leaves no listener behind', async () => {
    session = await activeSession();
    const s = session;
    const transportBefore = s.transport.listenerCount();
    let calls = 0;
    for (let i = 0; i < EVENTS; i += 1) {
      const off = s.on('user_transcription', () => (calls += 1));
      const unsub = s.store.subscribe(() => undefined);
      off();
      unsub();
    }
    s.transport.emitEvent({ type: 'user_transcription', transcription: 'after' });
    expect(calls).toBe(0);
    expect(s.transport.listenerCount()).toBe(transportBefore);
  });
});
