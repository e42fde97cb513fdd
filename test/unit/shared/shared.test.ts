import { describe, expect, it } from 'vitest';
import { backoffDelay, jitter, retryUntil } from '../../../src/shared/backoff';
import { fetchJson } from '../../../src/shared/fetch-json';
import { isRunning, isWaiting } from '../../../src/shared/phases';
import { transportOfRoomUrl } from '../../../src/shared/room-url';

const fail = (why: string) => new Error(why);

describe('shared helpers (one definition each, used by browser, proxy and emulator)', () => {
  it('names the transport of a room URL', () => {
    expect(transportOfRoomUrl('wss://lk.example')).toBe('rtc-a');
    expect(transportOfRoomUrl('WS://127.0.0.1:7880')).toBe('rtc-a');
    expect(transportOfRoomUrl('https://x.daily.co/room')).toBe('rtc-b');
    expect(transportOfRoomUrl('ftp://x')).toBeNull();
    expect(transportOfRoomUrl('no-scheme')).toBeNull();
    expect(transportOfRoomUrl(undefined)).toBeNull();
  });

  it('knows the running and waiting phases', () => {
    expect(['idle', 'creating', 'queued', 'connecting', 'active', 'ending', 'ended', 'error'].filter(isRunning)).toEqual([
      'creating',
      'queued',
      'connecting',
      'active',
    ]);
    expect(isWaiting('active')).toBe(false);
    expect(isWaiting('connecting')).toBe(true);
  });

  it('backs off exponentially with ±50 % jitter, capped, never past the time left', () => {
    const p = { baseMs: 500, maxMs: 5_000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, p, Infinity, () => 0.5))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(backoffDelay(1, p, Infinity, () => 0)).toBe(500);
    expect(backoffDelay(6, p, 800, () => 0.9)).toBe(800);
    expect(jitter(1000, 0.2, () => 0)).toBe(800);
  });

  it('retryUntil returns the first success and null once aborted', async () => {
    let n = 0;
    const ok = await retryUntil(async () => (++n < 3 ? Promise.reject(new Error('no')) : 'yes'), {
      deadline: Date.now() + 10_000,
      signal: new AbortController().signal,
      policy: { baseMs: 1, maxMs: 2 },
    });
    expect([ok, n]).toEqual(['yes', 3]);
    const ctl = new AbortController();
    ctl.abort();
    expect(
      await retryUntil(async () => 'never', { deadline: Date.now() + 10_000, signal: ctl.signal, policy: { baseMs: 1, maxMs: 2 } }),
    ).toBeNull();
  });

  it('fetchJson parses JSON, keeps non-JSON as text, and names why there was no answer', async () => {
    const answer = (text: string, status = 200) => (async () => new Response(text, { status })) as typeof fetch;
    expect(await fetchJson('http://x', {}, { fetch: answer('{"a":1}'), timeoutMs: 1000, fail })).toMatchObject({
      ok: true,
      body: { a: 1 },
      isJson: true,
    });
    expect(await fetchJson('http://x', {}, { fetch: answer('oops', 500), timeoutMs: 1000, fail })).toMatchObject({
      ok: false,
      text: 'oops',
      isJson: false,
    });
    const hang: typeof fetch = (_u, init) =>
      new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    await expect(fetchJson('http://x', {}, { fetch: hang, timeoutMs: 5, fail })).rejects.toThrow('timeout');
    const ctl = new AbortController();
    const p = fetchJson('http://x', {}, { fetch: hang, timeoutMs: 60_000, signal: ctl.signal, fail });
    ctl.abort();
    await expect(p).rejects.toThrow('aborted');
    const down: typeof fetch = async () => Promise.reject(new TypeError('fetch failed'));
    await expect(fetchJson('http://x', {}, { fetch: down, timeoutMs: 1000, fail })).rejects.toThrow('network');
  });
});
