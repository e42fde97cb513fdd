import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Phase } from '../../../src/core';
import { SESSION_POSTER_DELAY_MS, useSessionPosterDue } from '../../../src/components/stage/AvatarStage';

/**
 * The session's own image is a poster only when it is worth its download and decode: not during a fast connect
 * (the video covers it a moment later), but while queued, after the call, or once a call has gone 1 s without video.
 */
const IMG = 'https://service.test/agent.png';
type Props = { phase: Phase; image: string | null; video: boolean };
/** The poster AvatarStage shows of the session's image (`image` is null until the create call answered). */
const poster = (initial: Props) =>
  renderHook((p: Props) => (useSessionPosterDue(p.phase, p.video) ? p.image : null), { initialProps: initial });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('a fast connect never loads the session image: creating → connecting → active with video', () => {
  const h = poster({ phase: 'creating', image: null, video: false });
  h.rerender({ phase: 'connecting', image: IMG, video: false });
  expect(h.result.current).toBeNull();
  act(() => vi.advanceTimersByTime(SESSION_POSTER_DELAY_MS - 100));
  h.rerender({ phase: 'active', image: IMG, video: true });
  expect(h.result.current).toBeNull();
  act(() => vi.advanceTimersByTime(10 * SESSION_POSTER_DELAY_MS));
  expect(h.result.current).toBeNull();
});

it('queued, ending, ended and error show it at once', () => {
  for (const phase of ['queued', 'ending', 'ended', 'error'] as const)
    expect(poster({ phase, image: IMG, video: false }).result.current).toBe(IMG);
});

it('a call without video for 1 s shows it, and keeps it when the video arrives; the next start hides it again', () => {
  const h = poster({ phase: 'connecting', image: IMG, video: false });
  act(() => vi.advanceTimersByTime(SESSION_POSTER_DELAY_MS));
  expect(h.result.current).toBe(IMG);
  h.rerender({ phase: 'active', image: IMG, video: true });
  expect(h.result.current).toBe(IMG);
  h.rerender({ phase: 'creating', image: null, video: false });
  h.rerender({ phase: 'connecting', image: IMG, video: false });
  expect(h.result.current).toBeNull();
});

it('when the live video goes away for 1 s (the avatar reconnecting), the session image shows behind it', () => {
  const h = poster({ phase: 'active', image: IMG, video: true });
  h.rerender({ phase: 'active', image: IMG, video: false });
  expect(h.result.current).toBeNull();
  act(() => vi.advanceTimersByTime(SESSION_POSTER_DELAY_MS));
  expect(h.result.current).toBe(IMG);
});
