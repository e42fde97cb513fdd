import './cleanup';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarStageView } from '../../../src/components';
import { LiveAiError } from '../../../src/core/errors';

const region = () => screen.getByRole('region', { name: 'Avatar' });

class FakeStream {
  constructor(private tracks: MediaStreamTrack[]) {}
  getTracks() {
    return this.tracks;
  }
  getVideoTracks() {
    return this.tracks.filter((t) => t.kind === 'video');
  }
}

describe('AvatarStage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('idle: poster and a Start button', async () => {
    const onStart = vi.fn();
    const { container } = render(<AvatarStageView phase="idle" imageUrl="https://x.test/a.png" onStart={onStart} />);
    expect(region()).toHaveAttribute('data-phase', 'idle');
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://x.test/a.png');
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    expect(onStart).toHaveBeenCalledOnce();
  });

  it('queued: cold-start progress over the poster', () => {
    render(<AvatarStageView phase="queued" queue={{ elapsedMs: 25_000, estimateMs: 150_000, progress: 0.2, slow: true }} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '20');
    expect(screen.getByText(/More traffic than usual/)).toBeInTheDocument();
  });

  it('active + audio blocked: "Turn on sound" calls onUnblockAudio', async () => {
    const onUnblockAudio = vi.fn();
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    render(<AvatarStageView phase="active" audioBlocked onUnblockAudio={onUnblockAudio} />);
    expect(region()).toHaveAttribute('data-audio-blocked', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on sound' }));
    expect(onUnblockAudio).toHaveBeenCalledOnce();
  });

  it('shows the video track muted and plays no audio itself (the session does): no <audio>, no unmute unless the store says blocked', () => {
    vi.stubGlobal('MediaStream', FakeStream);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const video = { kind: 'video' } as MediaStreamTrack;
    const { container } = render(<AvatarStageView phase="active" videoTrack={video} />);
    expect((container.querySelector('video')!.srcObject as unknown as FakeStream).getTracks()).toEqual([video]);
    expect(container.querySelector('video')!.muted).toBe(true);
    expect(container.querySelector('audio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Turn on sound' })).toBeNull();
  });

  it('keeps "Connecting…" over the poster until the video has a frame of the track, then shows the video', () => {
    vi.stubGlobal('MediaStream', FakeStream);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const first = { kind: 'video' } as MediaStreamTrack;
    const { container, rerender } = render(<AvatarStageView phase="active" videoTrack={first} imageUrl="https://x.test/a.png" />);
    const el = container.querySelector('video')!;
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
    expect(region()).not.toHaveAttribute('data-has-video');

    // The first frame is decoded (HAVE_ENOUGH_DATA, then loadeddata).
    Object.defineProperty(el, 'readyState', { configurable: true, get: () => 4 });
    fireEvent(el, new Event('loadeddata'));
    expect(region()).toHaveAttribute('data-has-video', 'true');
    expect(screen.queryByText('Connecting…')).toBeNull();

    // A new track (after a rejoin) waits for its own first frame.
    Object.defineProperty(el, 'readyState', { configurable: true, get: () => 0 });
    rerender(<AvatarStageView phase="active" videoTrack={{ kind: 'video' } as MediaStreamTrack} imageUrl="https://x.test/a.png" />);
    expect(region()).not.toHaveAttribute('data-has-video');
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
  });

  it('ended: says why, offers to start again, and shows no cost to visitors unless asked', async () => {
    const onRestart = vi.fn();
    const { rerender } = render(<AvatarStageView phase="ended" cost={1.25} endReason="idle_timeout" onRestart={onRestart} />);
    expect(screen.getByRole('status').textContent).not.toMatch(/credit|cost/);
    rerender(<AvatarStageView phase="ended" cost={1.25} endReason="idle_timeout" onRestart={onRestart} showCost />);
    expect(screen.getByRole('status')).toHaveTextContent('This call used 1.25 credits.');
    expect(screen.getByText(/period of inactivity/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start again' }));
    expect(onRestart).toHaveBeenCalledOnce();
  });

  it('error: a short sentence and one action, without the technical detail', async () => {
    const onRetry = vi.fn();
    const error = new LiveAiError('rate_limited', 'Too many session creations; retry in 3 s', { status: 429 });
    render(<AvatarStageView phase="error" error={error} onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The avatar is busy right now.');
    expect(alert).toHaveTextContent('Many people are calling at once. Wait a moment.');
    expect(alert).not.toHaveTextContent('retry in 3 s');
    expect(within(alert).getAllByRole('button')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('error that retrying cannot mend: no "Try again", what to do instead', () => {
    const noWebRtc = new LiveAiError('transport_failed', 'This browser cannot make video calls (it has no WebRTC).', {
      retryable: false,
    });
    const { rerender } = render(<AvatarStageView phase="error" error={noWebRtc} onRetry={vi.fn()} />);
    let alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not connect to the call.');
    expect(alert).toHaveTextContent('Open this page in a current Chrome, Edge, Firefox or Safari.');
    expect(alert).not.toHaveTextContent('Check your internet connection.');
    expect(within(alert).queryByRole('button')).toBeNull();
    // Every code that is not retryable by default gets a hint and no button.
    for (const code of [
      'invalid_request',
      'invalid_api_key',
      'insufficient_funds',
      'forbidden',
      'not_found',
      'conflict',
      'missing_peer',
    ] as const) {
      rerender(<AvatarStageView phase="error" error={new LiveAiError(code, 'technical', { status: 400 })} onRetry={vi.fn()} />);
      alert = screen.getByRole('alert');
      expect(within(alert).queryByRole('button')).toBeNull();
      expect(alert.querySelectorAll('p')).toHaveLength(2);
      expect(alert).not.toHaveTextContent('technical');
    }
  });
});
