import { act, renderHook, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wrap } from './session-wrapper';
import {
  AvatarSessionProvider,
  queueProgress,
  useAvatarEvents,
  useMediaDevices,
  useQueueClock,
  useSession,
  useSessionList,
} from '../../../src/react';
import { createFakeProxy, createTestSession } from '../../../src/testing';
import { until } from '../core/helpers';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('useQueueClock', () => {
  it('ticks once per second while queued, is slow after 20 s, and freezes at 1 when active', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const s = createTestSession();
    let renders = 0;
    const { result } = renderHook(() => (renders++, useQueueClock()), { wrapper: wrap(s) });
    expect(result.current).toMatchObject({ elapsedMs: 0, progress: 0, slow: false });
    await act(async () => {
      void s.start();
      await until(() => s.store.getState().phase === 'queued');
    });
    const r0 = renders;
    for (let i = 0; i < 5; i++) act(() => vi.advanceTimersByTime(1000));
    expect(renders - r0).toBe(5);
    expect(result.current.elapsedMs).toBe(5000);
    expect(result.current.progress).toBeCloseTo(queueProgress(5000), 5);
    act(() => vi.advanceTimersByTime(16_000));
    expect(result.current.slow).toBe(true);
    await act(async () => {
      s.proxy.setStatus('sess_1', 'ACTIVE');
      await until(() => s.store.getState().phase === 'active');
    });
    const r1 = renders;
    act(() => vi.advanceTimersByTime(10_000));
    expect(renders).toBe(r1);
    expect(result.current).toMatchObject({ elapsedMs: 21_000, progress: 1 });
    s.dispose({ end: false });
  });
  it('progress is monotone, starts at 0 and stays below 1 while queued', () => {
    let last = -1;
    for (let t = 0; t <= 300_000; t += 1000) {
      const p = queueProgress(t);
      expect(p).toBeGreaterThanOrEqual(last);
      expect(p).toBeLessThan(1);
      last = p;
    }
    expect(queueProgress(0)).toBe(0);
    expect(queueProgress(150_000)).toBeGreaterThan(0.9);
  });
});

describe('useSessionList', () => {
  it('lists rooms page by page through the proxy, with admin headers', async () => {
    const proxy = createFakeProxy();
    for (let i = 0; i < 3; i++) proxy.seedSession({ kind: 'room', createdAt: Date.now() - i * 1000 });
    const { result } = renderHook(() =>
      useSessionList({ proxyUrl: 'http://p', kind: 'rooms', limit: 2, fetch: proxy.fetch, headers: { 'x-admin': '1' } }),
    );
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.items.map((r) => r.session_id)).toEqual(['sess_1', 'sess_2']);
    expect(result.current.pagination).toMatchObject({ page: 1, total: 3, has_more: true });
    act(() => result.current.setPage(2));
    await waitFor(() => expect(result.current.items.map((r) => r.session_id)).toEqual(['sess_3']));
    expect(proxy.calls.at(-1)!.headers['x-admin']).toBe('1');
    proxy.seedSession({ kind: 'room', createdAt: 0 });
    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.items).toHaveLength(2));
  });
  it('errors land in error (e.g. a page past the 1000 offset)', async () => {
    const proxy = createFakeProxy();
    const { result } = renderHook(() => useSessionList({ proxyUrl: 'http://p', kind: 'sessions', page: 500, fetch: proxy.fetch }));
    await waitFor(() => expect(result.current.error?.code).toBe('invalid_request'));
    expect(result.current.items).toEqual([]);
  });
});

describe('useMediaDevices', () => {
  it('filters by kind and refreshes on devicechange', async () => {
    const target = new EventTarget();
    let list = [{ kind: 'audioinput', deviceId: 'm1', label: 'Mic 1' }];
    const md = Object.assign(target, {
      enumerateDevices: vi.fn(async () => [...list, { kind: 'videoinput', deviceId: 'c1', label: 'Cam' }]),
    });
    Object.defineProperty(navigator, 'mediaDevices', { value: md, configurable: true });
    const { result } = renderHook(() => useMediaDevices('audioinput'));
    await waitFor(() => expect(result.current.map((d) => d.deviceId)).toEqual(['m1']));
    list = [...list, { kind: 'audioinput', deviceId: 'm2', label: 'Mic 2' }];
    act(() => void target.dispatchEvent(new Event('devicechange')));
    await waitFor(() => expect(result.current.map((d) => d.deviceId)).toEqual(['m1', 'm2']));
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });
});

describe('errors and SSR', () => {
  it("useAvatarEvents('error') receives malformed-message errors", () => {
    const s = createTestSession({ initialState: { phase: 'active' } });
    const errors: string[] = [];
    renderHook(() => useAvatarEvents('error', (e) => errors.push(e.code)), { wrapper: wrap(s) });
    act(() => s.transport.emitRaw('garbage'));
    expect(errors).toEqual(['invalid_event']);
    s.dispose({ end: false });
  });
  it('renders on the server with the provider and hooks', () => {
    function Phase() {
      const { phase } = useSession();
      const q = useQueueClock();
      return <p>{`${phase}:${q.progress}`}</p>;
    }
    const html = renderToString(
      <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'a' } }}>
        <Phase />
      </AvatarSessionProvider>,
    );
    expect(html).toContain('idle:0');
  });
});
