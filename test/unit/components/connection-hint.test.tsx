import './cleanup';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarWidget } from '../../../src/components';
import { NO_HINT, nextHint } from '../../../src/components/widget/ConnectionHint';
import type { CallStats } from '../../../src/core';
import { createTestSession } from '../../../src/testing';

const stats = (packetLossPct: number): CallStats => ({ rttMs: 40, jitterMs: 5, packetLossPct, fps: 25, bitrateKbps: 900, at: 0 });
const POOR = () => stats(9);
const GOOD = () => stats(0);

describe('nextHint (hysteresis)', () => {
  it('shows after two poor samples in a row, clears after two good ones; one stray sample flips nothing', () => {
    const run = (qs: Parameters<typeof nextHint>[1][]) => qs.reduce(nextHint, NO_HINT).shown;
    expect(run(['poor'])).toBe(false);
    expect(run(['poor', 'good', 'poor'])).toBe(false);
    expect(run(['poor', 'unknown', 'poor'])).toBe(true);
    expect(run(['poor', 'poor'])).toBe(true);
    expect(run(['poor', 'poor', 'excellent'])).toBe(true);
    expect(run(['poor', 'poor', 'good', 'poor'])).toBe(true);
    expect(run(['poor', 'poor', 'good', 'excellent'])).toBe(false);
  });
});

describe('AvatarWidget connection hint', () => {
  beforeEach(async () => {
    // The call's parts come in their own chunk, fetched before a call goes live (here: before the test's clock stops).
    await import('../../../src/components/widget/call-ui');
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  /** One sample of `useCallStats` (every 2 s): a fresh stats object, as a real getStats() answers. */
  async function sample(session: ReturnType<typeof createTestSession>, next: CallStats) {
    session.transport.stats = next;
    await act(() => vi.advanceTimersByTimeAsync(2000));
  }

  it('says so politely while the call stays poor, can be dismissed, and comes back only after recovering', async () => {
    const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
    session.transport.stats = GOOD();
    render(<AvatarWidget session={session} variant="inline" />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    // The widget's own status region (the stage has another, for the agent state), there before anything is said
    // in it, so screen readers announce what appears.
    const region = screen.getAllByRole('status').find((el) => el.classList.contains('liveai-widget__hint'))!;
    expect(region).toBeDefined();
    const hint = () => screen.queryByText(/Your connection is unstable/);
    await sample(session, POOR());
    expect(hint()).toBeNull(); // one poor sample is not a trend
    await sample(session, POOR());
    expect(hint()).toBeInTheDocument();
    expect(region).toContainElement(hint());
    await sample(session, GOOD());
    expect(hint()).toBeInTheDocument(); // one good sample does not clear it
    await sample(session, POOR());
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(hint()).toBeNull();
    await sample(session, POOR());
    expect(hint()).toBeNull(); // dismissed for this bad spell
    await sample(session, GOOD());
    await sample(session, GOOD());
    await sample(session, POOR());
    await sample(session, POOR());
    expect(hint()).toBeInTheDocument(); // a new bad spell
  });

  it('stays off with showConnectionHint={false}', async () => {
    const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
    render(<AvatarWidget session={session} variant="inline" showConnectionHint={false} />);
    for (let i = 0; i < 3; i++) await sample(session, POOR());
    expect(screen.queryByText(/Your connection is unstable/)).toBeNull();
  });
});
