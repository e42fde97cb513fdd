import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionState } from '../../../src/core';
import { useAgentState, useControl, useMedia, useTranscript } from '../../../src/react';
import { preloadEngine } from '../../../src/core/session/create';
import { FakeTransport } from '../../../src/testing';
import { wrap } from '../react/session-wrapper';
import { fakeVideoTrack, harness, until, useFakeClock } from './helpers';

/**
 * A start writes the session's store as few times as what changes allows: every store notification runs every
 * selector of every component on the page, and each one that selects a changed value renders again. From the Start
 * click to the first frame, with the real engine, the fake proxy and a fake transport at the room boundary, in the
 * order a LiveKit join reports it (connecting, connected, the avatar's video still without packets, its audio,
 * `bot_ready`, the first packets).
 */
beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

/** The fields (and `media.*` fields) each store notification changed. */
function recordWrites(store: { subscribe(l: (s: SessionState, p: SessionState) => void): () => void }) {
  const writes: string[][] = [];
  store.subscribe((s, p) => {
    const changed = (Object.keys(s) as (keyof SessionState)[]).filter((k) => s[k] !== p[k]);
    const media = s.media !== p.media ? Object.keys(s.media).filter((k) => s.media[k as never] !== p.media[k as never]) : [];
    writes.push([...changed.filter((k) => k !== 'media'), ...media.map((k) => `media.${k}`)]);
  });
  return writes;
}

/** Start click → first frame, as a LiveKit join reports it. */
async function startToFirstFrame(h: ReturnType<typeof harness>, fake: FakeTransport) {
  const started = h.session.start();
  await until(() => fake.connectCalls.length, 'the join');
  fake.completeConnect();
  await until(() => h.session.store.getState().media.connection === 'connected', 'connected');
  const video = fakeVideoTrack({ muted: true });
  fake.emitTrack('video', video);
  fake.emitTrack('audio', fakeVideoTrack() as never);
  fake.emitEvent({ type: 'bot_ready' } as never);
  video.unmute(); // the first frame
  await started;
}

describe('store writes of a start', () => {
  it('every notification changes something, and the click itself writes only the phase and the start time', async () => {
    const fake = new FakeTransport({ autoConnect: false });
    const h = harness({ fake });
    const writes = recordWrites(h.session.store);
    await startToFirstFrame(h, fake);
    expect(h.session.store.getState().phase).toBe('active');
    expect(writes.filter((w) => w.length === 0)).toEqual([]); // before: the join settling and the first packets wrote nothing new
    expect(writes[0]).toEqual(['phase', 'startedAt']); // before: also a new transcript, image, media and agent state
    expect(writes).toHaveLength(8); // before: 10
    expect(h.violations).toEqual([]);
  });

  it('a restart after a call resets what the call changed, and keeps what it did not', async () => {
    const fake = new FakeTransport({ autoConnect: false });
    const h = harness({ fake });
    await startToFirstFrame(h, fake);
    fake.emitEvent({ type: 'agent_transcription', transcription: 'Hello' } as never);
    await h.session.end();
    const before = h.session.store.getState();
    const writes = recordWrites(h.session.store);
    void h.session.start().catch(() => undefined);
    const s = h.session.store.getState();
    expect(s.transcript).toEqual([]);
    expect(s.media.videoTrack).toBeNull();
    expect(s.image).toBe(before.image); // unchanged by the call: the same value
    expect(writes[0]).toContain('transcript');
    await h.session.end();
  });

  it('the hooks that read the transcript, media, image or agent state do not render again on the click', async () => {
    const fake = new FakeTransport({ autoConnect: false });
    const h = harness({ fake });
    await preloadEngine(h.session); // as a provider does once it mounted
    const renders = { transcript: 0, media: 0, control: 0, agent: 0 };
    const count = (name: keyof typeof renders, use: () => unknown) => () => {
      use();
      renders[name]++;
    };
    renderHook(count('transcript', useTranscript), { wrapper: wrap(h.session) });
    renderHook(count('media', useMedia), { wrapper: wrap(h.session) });
    renderHook(count('control', useControl), { wrapper: wrap(h.session) });
    renderHook(count('agent', useAgentState), { wrapper: wrap(h.session) });
    const first = { ...renders };
    act(() => void h.session.start().catch(() => undefined)); // the click: its one synchronous write, rendered
    expect(h.session.store.getState().phase).toBe('creating');
    expect(renders).toEqual(first); // before: one more each
    await act(async () => {
      await h.session.end();
    });
  });

  it('the user’s audio and keep-alive choices notify only when they change', () => {
    const h = harness();
    const writes = recordWrites(h.session.store);
    h.session.setVolume(1);
    h.session.setSpeakerMuted(false);
    h.session.setKeepAlive(false);
    expect(writes).toEqual([]); // before: 3 notifications for nothing
    h.session.setVolume(0.5);
    h.session.setVolume(0.5);
    expect(writes).toEqual([['media.volume']]);
  });
});
