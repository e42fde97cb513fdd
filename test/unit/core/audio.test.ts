import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PCM_FRAME_BYTES, streamPcmToWebSocket } from '../../../src/core';
import { createFramer, createResampler, downmix, floatToPcm16, resample, toPcmFrames } from '../../../src/core/audio/pcm';

describe('PCM conversion (pure)', () => {
  it('downmixes channels by averaging', () => {
    expect(Array.from(downmix([Float32Array.of(1, 0.5), Float32Array.of(0, 0.5)]))).toEqual([0.5, 0.5]);
  });
  it('48 kHz → 16 kHz averages triples; 8 kHz → 16 kHz interpolates', () => {
    const x = Float32Array.from({ length: 9 }, (_, i) => i);
    expect(Array.from(resample(x, 48_000, 16_000))).toEqual([1, 4, 7]);
    expect(Array.from(resample(Float32Array.of(0, 1, 2), 8_000, 16_000))).toEqual([0, 0.5, 1, 1.5, 2, 2]);
  });
  it('keeps a sine wave at the same frequency and length after 44.1 kHz → 16 kHz', () => {
    const sr = 44_100;
    const x = Float32Array.from({ length: sr }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / sr));
    const y = resample(x, sr, 16_000);
    expect(Math.abs(y.length - 16_000)).toBeLessThanOrEqual(1);
    let crossings = 0;
    for (let i = 1; i < y.length; i++) if (y[i - 1]! < 0 && y[i]! >= 0) crossings++;
    expect(Math.abs(crossings - 440)).toBeLessThanOrEqual(1);
  });
  it('the streaming resampler gives the same samples across chunk boundaries', () => {
    const x = Float32Array.from({ length: 4410 }, (_, i) => Math.sin(i / 7));
    const whole = resample(x, 44_100, 16_000);
    const rs = createResampler(44_100, 16_000);
    const parts: number[] = [];
    for (let i = 0; i < x.length; i += 123) parts.push(...rs.push(x.subarray(i, i + 123)));
    parts.push(...rs.flush());
    expect(parts.length).toBe(whole.length);
    parts.forEach((v, i) => expect(v).toBeCloseTo(whole[i]!, 6));
  });
  it('float → PCM16 little-endian with clamping', () => {
    const b = floatToPcm16(Float32Array.of(0, 1, -1, 2, -0.5));
    const v = new DataView(b.buffer);
    expect([0, 2, 4, 6, 8].map((o) => v.getInt16(o, true))).toEqual([0, 32767, -32768, 32767, -16384]);
    expect(b[2]).toBe(0xff);
    expect(b[3]).toBe(0x7f);
  });
  it('frames are 640 bytes (20 ms at 16 kHz); the tail is padded with silence', () => {
    const f = createFramer();
    expect(f.push(new Uint8Array(1000))).toHaveLength(1);
    const tail = f.flush();
    expect(tail).toHaveLength(1);
    expect(tail[0]!.length).toBe(PCM_FRAME_BYTES);
    const frames = toPcmFrames([new Float32Array(48_000)], 48_000); // 1 s
    expect(frames).toHaveLength(50);
  });
});

class FakeSocket {
  static last: FakeSocket;
  readyState = 0;
  binaryType = '';
  sent: Uint8Array[] = [];
  closed: number | null = null;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(d: Uint8Array) {
    this.sent.push(d);
  }
  close(code: number) {
    this.closed = code;
    this.readyState = 3;
  }
}

describe('streamPcmToWebSocket', () => {
  // Frames are paced in real time (one per 20 ms): the clock is faked and moved on by hand.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const clip = (seconds: number, sampleRate = 48_000) => ({
    sampleRate,
    numberOfChannels: 2,
    getChannelData: () => new Float32Array(seconds * sampleRate).fill(0.25),
  });

  it('sends a clip as 20 ms binary frames of 640 bytes, then closes with 1000', async () => {
    const s = streamPcmToWebSocket({ address: 'wss://ws.test/s1', source: clip(0.1), WebSocket: FakeSocket as never });
    await vi.runAllTimersAsync();
    await s.done;
    const ws = FakeSocket.last;
    expect(ws.url).toBe('wss://ws.test/s1');
    expect(ws.binaryType).toBe('arraybuffer');
    expect(ws.sent).toHaveLength(5);
    expect(ws.sent.every((f) => f.length === 640)).toBe(true);
    expect(new DataView(ws.sent[0]!.buffer).getInt16(0, true)).toBe(Math.round(0.25 * 32767));
    expect(ws.closed).toBe(1000);
    expect(s.framesSent).toBe(5);
  });

  it('stop() ends a long clip early and resolves done', async () => {
    const s = streamPcmToWebSocket({ address: 'wss://ws.test/s2', source: clip(60), WebSocket: FakeSocket as never });
    await vi.advanceTimersByTimeAsync(40);
    expect(s.framesSent).toBeGreaterThanOrEqual(2);
    s.stop();
    await s.done;
    expect(s.framesSent).toBeLessThan(3000);
    expect(FakeSocket.last.closed).toBe(1000);
  });

  it('a socket that closes early rejects done with transport_failed', async () => {
    const s = streamPcmToWebSocket({ address: 'wss://ws.test/s3', source: clip(60), WebSocket: FakeSocket as never });
    await vi.advanceTimersByTimeAsync(20);
    expect(s.framesSent).toBeGreaterThanOrEqual(1);
    FakeSocket.last.readyState = 3;
    FakeSocket.last.onclose?.();
    await expect(s.done).rejects.toMatchObject({ code: 'transport_failed' });
  });

  it('a file without an AudioContext is invalid_request', async () => {
    const s = streamPcmToWebSocket({ address: 'wss://ws.test/s4', source: new ArrayBuffer(8), WebSocket: FakeSocket as never });
    await expect(s.done).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
