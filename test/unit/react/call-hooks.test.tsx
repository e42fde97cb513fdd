import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallStats } from '../../../src/core';
import { callQuality } from '../../../src/components';
import { useAgentState, useAudioLevel, useCallStats } from '../../../src/react';
import { testSessions, wrap } from './session-wrapper';

const make = testSessions();
afterEach(() => void vi.useRealTimers());

const stats = (o: Partial<CallStats> = {}): CallStats => ({
  rttMs: 40,
  jitterMs: 5,
  packetLossPct: 0,
  fps: 25,
  bitrateKbps: 900,
  at: 0,
  ...o,
});

describe('useAgentState', () => {
  it('re-renders with each change of the agent’s state', async () => {
    const s = make({ initialState: { phase: 'active', sessionStatus: 'ACTIVE' } });
    const { result } = renderHook(() => useAgentState(), { wrapper: wrap(s) });
    expect(result.current.state).toBe('idle');
    act(() => s.transport.emitRoom('agentState', { state: 'speaking' }));
    await waitFor(() => expect(result.current).toMatchObject({ state: 'speaking', source: 'agent' }));
  });
});

describe('useCallStats', () => {
  it('samples every 2 s only while connected and mounted; null outside a connected room', async () => {
    vi.useFakeTimers();
    const s = make({ initialState: { phase: 'active', sessionStatus: 'ACTIVE' } });
    s.transport.stats = stats();
    const spy = vi.spyOn(s.transport, 'getStats');
    const { result, unmount } = renderHook(() => useCallStats(), { wrapper: wrap(s) });
    // Nothing is read while the call is being set up: the first sample comes one interval after the connection.
    await act(() => vi.advanceTimersByTimeAsync(1_999));
    expect(result.current).toBeNull();
    expect(spy).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current).toMatchObject({ rttMs: 40, bitrateKbps: 900 });
    s.transport.stats = stats({ packetLossPct: 7 });
    await act(() => vi.advanceTimersByTimeAsync(1_999));
    expect(result.current?.packetLossPct).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current?.packetLossPct).toBe(7);
    act(() => s.transport.setConnection('reconnecting'));
    expect(result.current).toBeNull();
    const calls = spy.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(spy.mock.calls.length).toBe(calls);
    act(() => s.transport.setConnection('connected'));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(spy.mock.calls.length).toBe(calls + 1);
    unmount();
    const after = spy.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(spy.mock.calls.length).toBe(after);
  });

  it('callQuality: unknown without numbers, then excellent, good and poor by loss, rtt and jitter', () => {
    expect(callQuality(null)).toBe('unknown');
    expect(callQuality(stats({ rttMs: null, jitterMs: null, packetLossPct: null }))).toBe('unknown');
    expect(callQuality(stats())).toBe('excellent');
    expect(callQuality(stats({ packetLossPct: 1 }))).toBe('good');
    expect(callQuality(stats({ rttMs: 250 }))).toBe('good');
    expect(callQuality(stats({ jitterMs: 60 }))).toBe('poor');
    expect(callQuality(stats({ packetLossPct: 12 }))).toBe('poor');
  });
});

describe('useAudioLevel', () => {
  it('is 0 without a track (no audio context is made)', () => {
    const s = make({ initialState: { phase: 'active', sessionStatus: 'ACTIVE' } });
    const { result } = renderHook(() => [useAudioLevel('avatar'), useAudioLevel('microphone')], { wrapper: wrap(s) });
    expect(result.current).toEqual([0, 0]);
  });
});
