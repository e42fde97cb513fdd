import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeProxy } from '../../../src/testing';
import { harness, type Harness, until, useFakeClock } from './helpers';

/**
 * Issue 40.3, endings that say why: the session's `endReason` for the proxy's maximum length (its status answer's
 * `end_reason: 'max_duration'`), for the service ending it (COMPLETED), for a call refused for want of credits
 * (`out_of_credits`) and for a room lost for good (`network`).
 */
let h: Harness | undefined;
beforeEach(() => void useFakeClock());
afterEach(() => {
  h?.session.dispose({ end: false });
  h = undefined;
  vi.useRealTimers();
});

/** The fake proxy's fetch, whose status answers carry `end_reason` once `reason.value` is set (as the real proxy's do). */
function withEndReason(proxy: ReturnType<typeof createFakeProxy>, reason: { value?: string }): typeof fetch {
  return async (input, init) => {
    const res = await proxy.fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!reason.value || (init?.method ?? 'GET') !== 'GET' || !/\/sessions\/[^/]+$/.test(new URL(url).pathname)) return res;
    const body = (await res.json()) as object;
    return new Response(JSON.stringify({ ...body, end_reason: reason.value }), { status: res.status, headers: res.headers });
  };
}

describe('endReason (issue 40.3)', () => {
  it('the proxy ended the call at its maximum length: max_duration, not an error', async () => {
    const proxy = createFakeProxy({ initialStatus: 'ACTIVE' });
    const reason: { value?: string } = {};
    h = harness({ proxy, fetch: withEndReason(proxy, reason) });
    await h.session.start();
    reason.value = 'max_duration';
    proxy.setStatus('sess_1', 'COMPLETED', 2);
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect(h.session.store.getState()).toMatchObject({ endReason: 'max_duration', error: null });
  });

  it('the service completed it on its own: completed', async () => {
    const proxy = createFakeProxy({ initialStatus: 'ACTIVE' });
    h = harness({ proxy });
    await h.session.start();
    proxy.setStatus('sess_1', 'COMPLETED', 2);
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect(h.session.store.getState().endReason).toBe('completed');
  });

  it('the service refused the call for want of credits (402): out_of_credits, with the insufficient_funds error', async () => {
    const proxy = createFakeProxy();
    proxy.failNext('POST /rooms', 402, 'The avatar service cannot start a session: insufficient funds');
    h = harness({ proxy });
    await expect(h.session.start()).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(h.session.store.getState()).toMatchObject({
      phase: 'error',
      endReason: 'out_of_credits',
      error: { code: 'insufficient_funds' },
    });
  });

  it('the room was lost for good: network, with the transport_failed error', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.start();
    h.transport.dropConnection();
    await until(() => h!.session.store.getState().phase === 'error', 'error');
    expect(h.session.store.getState()).toMatchObject({ endReason: 'network', error: { code: 'transport_failed' } });
  });
});
