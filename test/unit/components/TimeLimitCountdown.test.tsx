import './cleanup';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarStageView } from '../../../src/components';
import { expiresAtMs, timeLimitReached } from '../../../src/components/stage/clock';

describe('the maximum length of a call', () => {
  afterEach(() => vi.useRealTimers());

  it('shows nothing until the last 30 s, then counts down each second; screen readers hear it at 30 s and at 10 s only', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    render(<AvatarStageView phase="active" expiresAt={1_000_000 + 60_000} />);
    const live = screen.getByRole('status');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(screen.queryByText(/Call ends in/)).toBeNull();
    act(() => void vi.advanceTimersByTime(31_000));
    expect(screen.getByText('Call ends in 0:29')).toBeInTheDocument();
    expect(live).toHaveTextContent('The call ends in 30 seconds (time limit).');
    act(() => void vi.advanceTimersByTime(5_000));
    expect(screen.getByText('Call ends in 0:24')).toBeInTheDocument();
    expect(live).toHaveTextContent('The call ends in 30 seconds (time limit).');
    act(() => void vi.advanceTimersByTime(15_000));
    expect(screen.getByText('Call ends in 0:09')).toBeInTheDocument();
    expect(live).toHaveTextContent('The call ends in 10 seconds.');
  });

  it('no countdown without a maximum length, or when the call is not active', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { rerender } = render(<AvatarStageView phase="active" expiresAt={null} />);
    expect(screen.queryByText(/Call ends in/)).toBeNull();
    rerender(<AvatarStageView phase="ending" expiresAt={1_000_000 + 10_000} />);
    expect(screen.queryByText(/Call ends in/)).toBeNull();
  });

  it('the ended screen says the call reached its time limit', () => {
    render(<AvatarStageView phase="ended" endReason="completed" timeLimitReached cost={3} />);
    expect(screen.getByText('This call reached its time limit.')).toBeInTheDocument();
  });

  it('a call ended at its expiry, not by the page, reached its time limit', () => {
    const at = expiresAtMs('2026-11-23T14:00:00.000Z')!;
    expect(at).toBe(Date.parse('2026-11-23T14:00:00Z'));
    expect(expiresAtMs(undefined)).toBeNull();
    expect(expiresAtMs('not a date')).toBeNull();
    expect(timeLimitReached('ended', 'completed', at, at + 2000)).toBe(true);
    expect(timeLimitReached('ended', 'remote', at, at - 1000)).toBe(true);
    expect(timeLimitReached('ended', 'user', at, at + 2000)).toBe(false);
    expect(timeLimitReached('ended', 'completed', at, at - 60_000)).toBe(false);
    expect(timeLimitReached('active', null, at, at + 2000)).toBe(false);
    expect(timeLimitReached('ended', 'completed', null)).toBe(false);
  });
});
