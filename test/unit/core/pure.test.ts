import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseTransport, type SessionStatusResponse } from '../../../src/core';
import { createEventBus } from '../../../src/core/events/bus';
import { createKeepAlive, createStatusPoller, jittered, nextInterval } from '../../../src/core/session/call';
import { appendTranscript, derivePhase, nextImageState, reduceEvent } from '../../../src/core/session/state';
import { initialSessionState } from '../../../src/core/session/store';
import { parseAvatarEventMessage, validateControlEvent } from '../../../src/core/validation';

afterEach(() => vi.useRealTimers());

describe('phase and transport choice', () => {
  it('derives the phase from status, connection and history', () => {
    const d = (
      status: SessionStatusResponse['session_status'] | null,
      connection = 'disconnected' as const,
      hasRoom = true,
      wasActive = false,
    ) => derivePhase({ status, connection, hasRoom, wasActive });
    expect(d(null)).toBe('creating');
    expect(d('QUEUED')).toBe('queued');
    expect(d('ACTIVE')).toBe('connecting');
    expect(derivePhase({ status: 'ACTIVE', connection: 'connected', hasRoom: true, wasActive: false })).toBe('active');
    expect(d('ACTIVE', 'disconnected', false)).toBe('active');
    expect(derivePhase({ status: 'ACTIVE', connection: 'reconnecting', hasRoom: true, wasActive: true })).toBe('active');
    // The avatar's video arriving while the room still joins.
    expect(derivePhase({ status: 'ACTIVE', connection: 'connecting', hasRoom: true, wasActive: false, videoFlowing: true })).toBe('active');
    expect(derivePhase({ status: 'QUEUED', connection: 'connecting', hasRoom: true, wasActive: false, videoFlowing: true })).toBe('queued');
  });
  it('chooses rtc-a for ws(s) URLs, rtc-b for http(s), the option wins, null without a room', () => {
    expect(chooseTransport({ room_url: 'wss://lk.example' })).toBe('rtc-a');
    expect(chooseTransport({ room_url: 'ws://127.0.0.1:7880' })).toBe('rtc-a');
    expect(chooseTransport({ room_url: 'https://x.daily.co/room' })).toBe('rtc-b');
    expect(chooseTransport({ room_url: 'https://x.daily.co/room' }, 'rtc-a')).toBe('rtc-a');
    expect(chooseTransport({})).toBeNull();
  });
});

describe('store reducers', () => {
  it('appendTranscript keeps the newest lines', () => {
    let lines = [] as ReturnType<typeof appendTranscript>;
    for (let i = 1; i <= 5; i++) lines = appendTranscript(lines, { id: i, role: 'user', text: `${i}`, at: i }, 3);
    expect(lines.map((l) => l.id)).toEqual([3, 4, 5]);
  });
  it('image states only move forward within one change, and a new change can start after complete', () => {
    expect(nextImageState({ status: 'created' }, { type: 'image_change_requested' })).toBeNull();
    expect(nextImageState({ status: 'complete' }, { type: 'image_created' })).toBeNull();
    expect(nextImageState({ status: 'complete' }, { type: 'image_change_requested' })).toEqual({ status: 'requested' });
    expect(nextImageState({ status: 'sending' }, { type: 'image_change_error', error: 'nope' })).toEqual({
      status: 'error',
      error: 'nope',
    });
  });
  it('updateImage’s own steps go through the same rule: requested only after sending, never over the service’s progress', () => {
    expect(nextImageState({ status: 'complete' }, { kind: 'sending' })).toEqual({ status: 'sending' });
    expect(nextImageState({ status: 'sending' }, { kind: 'requested' })).toEqual({ status: 'requested' });
    expect(nextImageState({ status: 'created' }, { kind: 'requested' })).toBeNull(); // the service's events came first
    expect(nextImageState({ status: 'sending' }, { kind: 'failed', error: 'x' })).toEqual({ status: 'error', error: 'x' });
    expect(nextImageState({ status: 'complete' }, { type: 'image_change_complete' })).toBeNull(); // no write for nothing
  });
  it('an event adds its transcript line and lastEvent; its other effects have their own writers', () => {
    const s = { ...initialSessionState(), phase: 'queued', sessionStatus: 'QUEUED', sessionId: 's1', startedAt: 1, queuedAt: 1 } as const;
    expect(reduceEvent(s, { type: 'bot_ready' }, { now: 1, nextId: 1 })).toEqual({ lastEvent: { type: 'bot_ready' } });
    expect(reduceEvent(s, { type: 'image_created' }, { now: 1, nextId: 1 })).toEqual({ lastEvent: { type: 'image_created' } });
  });
});

describe('event parsing and bus', () => {
  it('parses bytes, text and objects; rejects bad JSON and unknown types with invalid_event', () => {
    const bytes = new TextEncoder().encode('{"type":"agent_transcription","transcription":"hi"}');
    expect(parseAvatarEventMessage(bytes)).toMatchObject({ ok: true, event: { type: 'agent_transcription', transcription: 'hi' } });
    expect(parseAvatarEventMessage('{"type":"bot_ready","extra":1}')).toMatchObject({ ok: true, event: { type: 'bot_ready', extra: 1 } });
    expect(parseAvatarEventMessage('{oops')).toMatchObject({ ok: false, error: { code: 'invalid_event' } });
    expect(parseAvatarEventMessage({ type: 'daily_error', error: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_event' } });
    expect(parseAvatarEventMessage(null)).toMatchObject({ ok: false });
  });
  it('the bus isolates throwing handlers and unsubscribes', () => {
    const errors: unknown[] = [];
    const bus = createEventBus<{ a: number }>((e) => errors.push(e));
    const got: number[] = [];
    bus.on('a', () => {
      throw new Error('x');
    });
    const off = bus.on('a', (n) => got.push(n));
    bus.emit('a', 1);
    off();
    bus.emit('a', 2);
    expect(got).toEqual([1]);
    expect(errors).toHaveLength(2);
    expect(bus.count('a')).toBe(1);
  });
});

describe('control validation', () => {
  it('accepts a data URL and rejects both sources, empty prompts and oversized inline images', () => {
    expect(validateControlEvent({ event: 'update-image', image_base64: 'data:image/png;base64,aGk=' })).toBeTruthy();
    expect(() => validateControlEvent({ event: 'update-image', image_url: 'https://a/x.png', image_base64: 'aGk=' })).toThrow(
      /exactly one/,
    );
    expect(() => validateControlEvent({ event: 'update-idle-prompt', idle_prompt: ' ' })).toThrow(/must not be empty/);
    const justUnder = 'A'.repeat(4 * 307_200 - 1) + '='; // decodes to 921599 bytes
    expect(() => validateControlEvent({ event: 'update-image', image_base64: justUnder })).not.toThrow();
    const atLimit = 'A'.repeat((921_600 / 3) * 4);
    expect(() => validateControlEvent({ event: 'update-image', image_base64: atLimit })).toThrow(
      expect.objectContaining({ code: 'payload_too_large' }),
    );
  });
});

describe('status poller', () => {
  it('backs off ×1.5 to the maximum with jitter in [0.8, 1.2), resets on change', () => {
    expect(nextInterval(1000, { base: 1000, max: 5000, changed: false })).toBe(1500);
    expect(nextInterval(4000, { base: 1000, max: 5000, changed: false })).toBe(5000);
    expect(nextInterval(5000, { base: 1000, max: 5000, changed: true })).toBe(1000);
    expect(jittered(1000, () => 0)).toBe(800);
    expect(jittered(1000, () => 0.999)).toBe(1200);
  });

  it('polls at once, then on the backoff schedule, and stops at a final status', async () => {
    vi.useFakeTimers();
    const statuses = ['QUEUED', 'QUEUED', 'QUEUED', 'ACTIVE', 'COMPLETED'] as const;
    const seen: string[] = [];
    let i = 0;
    const fetchStatus = vi.fn(async () => ({ session_status: statuses[Math.min(i++, statuses.length - 1)]! }));
    const p = createStatusPoller({
      fetchStatus,
      onStatus: (r) => seen.push(r.session_status),
      onError: () => {},
      intervalMs: 100,
      maxIntervalMs: 200,
      random: () => 0.5,
    });
    p.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1); // 100 ms
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(150); // 150 ms (×1.5)
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual(['QUEUED', 'QUEUED', 'QUEUED', 'ACTIVE', 'COMPLETED']);
    expect(p.running).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchStatus).toHaveBeenCalledTimes(5);
  });

  it('keeps polling through retryable errors and stops on a non-retryable one', async () => {
    vi.useFakeTimers();
    const { LiveAiError } = await import('../../../src/core');
    const errors = [new LiveAiError('upstream_error', 'x'), new LiveAiError('forbidden', 'y')];
    const fetchStatus = vi.fn(async () => Promise.reject(errors.shift()));
    const onError = vi.fn();
    const p = createStatusPoller({ fetchStatus, onStatus: () => {}, onError, intervalMs: 10, maxIntervalMs: 10, random: () => 0.5 });
    p.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    expect(p.running).toBe(false);
  });
});

describe('keep-alive', () => {
  it('sends on activity at most every interval, and on becoming visible; nothing without activity or after stop', () => {
    let now = 0;
    const target = new EventTarget();
    const send = vi.fn();
    const k = createKeepAlive({ intervalMs: 1000, send, target, document, now: () => now });
    k.start();
    target.dispatchEvent(new Event('pointermove'));
    expect(send).not.toHaveBeenCalled();
    now = 1000;
    target.dispatchEvent(new Event('keydown'));
    target.dispatchEvent(new Event('keydown'));
    expect(send).toHaveBeenCalledTimes(1);
    now = 1500;
    target.dispatchEvent(new Event('pointerdown'));
    expect(send).toHaveBeenCalledTimes(1);
    now = 5000;
    document.dispatchEvent(new Event('visibilitychange'));
    expect(send).toHaveBeenCalledTimes(2);
    k.stop();
    now = 99_000;
    target.dispatchEvent(new Event('pointerdown'));
    expect(send).toHaveBeenCalledTimes(2);
  });
});
