import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionMetric } from '../../../src/core';
import { fakeVideoTrack, harness, settle, until, type Harness, useFakeClock } from './helpers';

// The session option onMetric: what an app's analytics receive, on a fake clock (every duration is exact).
let h: Harness | undefined;
beforeEach(() => void useFakeClock());
afterEach(() => {
  h?.session.dispose();
  h = undefined;
  vi.useRealTimers();
});

/** Moves the page's clock by `ms` without running timers: what happens next is `ms` later. */
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
const phase = () => h!.session.store.getState().phase;

/** A call started and made active, with the avatar's video track muted until its first frame. */
async function activeCall(metrics: SessionMetric[], onMetric = (m: SessionMetric) => void metrics.push(m)) {
  h = harness({ onMetric });
  void settle(h.session.start());
  await until(() => phase() === 'queued', 'queued');
  later(1200); // the queue
  h.proxy.setStatus('sess_1', 'ACTIVE');
  const video = fakeVideoTrack({ muted: true });
  h.transport.emitTrack('video', video);
  await until(() => phase() === 'active', 'active');
  return video;
}

describe('onMetric (browser-side measurements, opt-in)', () => {
  it('reports the cold start, the first frame, each reconnect and each freeze, with their durations in ms', async () => {
    const metrics: SessionMetric[] = [];
    const video = await activeCall(metrics);
    const { startedAt, activeAt } = h!.session.store.getState();
    expect(metrics).toEqual([{ name: 'cold_start', durationMs: activeAt! - startedAt! }]);
    expect(activeAt! - startedAt!).toBeGreaterThanOrEqual(1200);

    later(300);
    video.unmute(); // the first frame
    expect(metrics.at(-1)).toEqual({ name: 'first_frame', sinceStartMs: Date.now() - startedAt! });

    h!.transport.setConnection('reconnecting');
    later(2500);
    h!.transport.setConnection('connected');
    expect(metrics.at(-1)).toEqual({ name: 'reconnect', durationMs: 2500, recovered: true, count: 1 });

    Object.assign(video, { muted: true });
    video.dispatchEvent(new Event('mute')); // no frames: the browser mutes the track
    later(1500);
    video.unmute();
    expect(metrics.at(-1)).toEqual({ name: 'freeze', durationMs: 1500 });

    h!.transport.setConnection('reconnecting');
    later(400);
    h!.transport.setConnection('connected');
    expect(metrics.at(-1)).toEqual({ name: 'reconnect', durationMs: 400, recovered: true, count: 2 });
    expect(metrics.map((m) => m.name)).toEqual(['cold_start', 'first_frame', 'reconnect', 'freeze', 'reconnect']);
  });

  it('a reconnect that is given up is reported as not recovered; a freeze during our own outage is not a freeze', async () => {
    const metrics: SessionMetric[] = [];
    const video = await activeCall(metrics);
    video.unmute();
    h!.transport.setConnection('reconnecting');
    Object.assign(video, { muted: true });
    video.dispatchEvent(new Event('mute')); // the video stops because the room is reconnecting
    later(700);
    video.unmute();
    h!.transport.setConnection('disconnected');
    expect(metrics.map((m) => m.name)).toEqual(['cold_start', 'first_frame', 'reconnect']);
    expect(metrics.at(-1)).toEqual({ name: 'reconnect', durationMs: 700, recovered: false, count: 1 });
  });

  it('a handler that throws is reported as handler_error and the call goes on', async () => {
    await activeCall([], () => {
      throw new Error('analytics down');
    });
    expect(h!.errors).toEqual([{ code: 'handler_error', detail: 'onMetric threw: Error: analytics down' }]);
    expect(phase()).toBe('active');
  });
});
