import './cleanup';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarStageView, MessagesProvider, type AvatarStageViewProps } from '../../../src/components';
import { AGENT_STATE_ANNOUNCE_MS } from '../../../src/components/stage/call-screens';
import { ar } from '../../../src/components/i18n/translations';

class FakeStream {
  constructor(private tracks: MediaStreamTrack[]) {}
  getTracks() {
    return this.tracks;
  }
  getVideoTracks() {
    return this.tracks;
  }
}

const track = { kind: 'video' } as MediaStreamTrack;
const region = () => screen.getByRole('region', { name: 'A' });
const announced = () => screen.getByRole('status');

/** An active stage whose video has decoded its first frame (what the visitor sees as the live picture). */
function liveStage(props: Partial<AvatarStageViewProps>) {
  const view = render(<AvatarStageView phase="active" videoTrack={track} label="A" {...props} />);
  const video = view.container.querySelector('video')!;
  Object.defineProperty(video, 'readyState', { configurable: true, get: () => 4 });
  fireEvent(video, new Event('loadeddata'));
  return {
    ...view,
    update: (p: Partial<AvatarStageViewProps>) => view.rerender(<AvatarStageView phase="active" videoTrack={track} label="A" {...p} />),
  };
}

describe('the agent state on the stage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('MediaStream', FakeStream);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a visible label says the state in a word (not idle), in the catalogue language', () => {
    const { update, container } = liveStage({ agentState: 'listening' });
    const label = () => container.querySelector('.liveai-stage__state');
    expect(label()).toHaveTextContent('Listening');
    expect(label()).toHaveAttribute('data-state', 'listening');
    update({ agentState: 'thinking' });
    expect(label()).toHaveTextContent('Thinking…');
    update({ agentState: 'speaking', agentMeter: <span>BARS</span> });
    expect(label()).toHaveTextContent('BARSSpeaking');
    update({ agentState: 'idle' });
    expect(label()).toBeNull();
    update({ agentState: 'speaking', showAgentState: false });
    expect(label()).toBeNull();
  });

  it('the ring follows the state on the live picture only', () => {
    const { update, container } = liveStage({ agentState: 'listening' });
    expect(region()).toHaveAttribute('data-agent-state', 'listening');
    expect(container.querySelector('.liveai-stage__agent')).toHaveAttribute('aria-hidden', 'true');
    update({ agentState: 'speaking' });
    expect(region()).toHaveAttribute('data-agent-state', 'speaking');

    // Before the first frame ("Connecting…") and after the call, no ring.
    const before = render(
      <AvatarStageView phase="active" videoTrack={{ kind: 'video' } as MediaStreamTrack} agentState="thinking" label="B" />,
    );
    expect(screen.getByRole('region', { name: 'B' })).not.toHaveAttribute('data-agent-state');
    before.unmount();
    render(<AvatarStageView phase="ended" agentState="listening" label="C" />);
    expect(screen.getByRole('region', { name: 'C' })).not.toHaveAttribute('data-agent-state');
  });

  it('announces Listening and Thinking politely once the state holds, not every quick turn', async () => {
    const { update } = liveStage({ agentState: 'idle' });
    expect(announced()).toHaveAttribute('aria-live', 'polite');
    expect(announced()).toHaveTextContent('');

    update({ agentState: 'listening' });
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS - 1));
    expect(announced()).toHaveTextContent('');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(announced()).toHaveTextContent('Listening');

    // A quick thinking → listening flip is not read out; the text stays as it was.
    update({ agentState: 'thinking' });
    await act(() => vi.advanceTimersByTimeAsync(300));
    update({ agentState: 'listening' });
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS * 2));
    expect(announced()).toHaveTextContent('Listening');

    update({ agentState: 'thinking' });
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS));
    expect(announced()).toHaveTextContent('Thinking…');

    // Speaking is heard in the avatar's voice: the region empties, so the next Listening is announced again.
    update({ agentState: 'speaking' });
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS));
    expect(announced()).toHaveTextContent('');
    update({ agentState: 'listening' });
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS));
    expect(announced()).toHaveTextContent('Listening');
  });

  it('speaks the catalogue: Arabic', async () => {
    const view = render(
      <MessagesProvider messages={ar}>
        <AvatarStageView phase="active" videoTrack={track} agentState="thinking" />
      </MessagesProvider>,
    );
    const video = view.container.querySelector('video')!;
    Object.defineProperty(video, 'readyState', { configurable: true, get: () => 4 });
    fireEvent(video, new Event('loadeddata'));
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS));
    expect(announced()).toHaveTextContent(ar.agentStates.thinking);
  });

  it('showAgentState={false}: no ring, no announcements', async () => {
    const { container } = liveStage({ agentState: 'listening', showAgentState: false });
    await act(() => vi.advanceTimersByTimeAsync(AGENT_STATE_ANNOUNCE_MS));
    expect(region()).not.toHaveAttribute('data-agent-state');
    expect(container.querySelector('.liveai-stage__agent')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
