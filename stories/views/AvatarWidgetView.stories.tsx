import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, fn } from 'storybook/test';
import {
  AvatarStageView,
  AvatarWidgetView,
  ChatInputView,
  ControlBarView,
  TranscriptPanelView,
  type AvatarWidgetViewProps,
} from '../../src/components';
import { sampleAvatarImage, sampleTranscript } from '../../src/testing';

/** The widget shell filled with the pure views, all driven by the story's args. */
function Composed(args: AvatarWidgetViewProps) {
  const [state, setState] = useState(args.state);
  useEffect(() => setState(args.state), [args.state]);
  const active = args.phase === 'active';
  const caption = args.variant !== 'inline';
  return (
    <AvatarWidgetView
      {...args}
      state={state}
      onStateChange={(next) => (args.onStateChange?.(next), setState(next))}
      stage={
        <AvatarStageView
          phase={args.phase}
          imageUrl={sampleAvatarImage}
          cost={0.75}
          queue={{ elapsedMs: 7000, estimateMs: 15_000, progress: 0.45, slow: false }}
          onStart={fn()}
        >
          {caption && active && <TranscriptPanelView lines={sampleTranscript} mode="caption" />}
        </AvatarStageView>
      }
      transcript={caption ? undefined : <TranscriptPanelView lines={active ? sampleTranscript : []} />}
      chat={<ChatInputView onSend={fn()} disabled={!active} />}
      controls={
        ['creating', 'queued', 'connecting', 'active'].includes(args.phase) ? (
          <ControlBarView
            micEnabled
            speakerMuted={false}
            volume={1}
            disabled={!active}
            endDisabled={false}
            onMicChange={fn()}
            onSpeakerMutedChange={fn()}
            onEnd={fn()}
          />
        ) : undefined
      }
    />
  );
}

const meta = {
  title: 'Views/AvatarWidgetView',
  component: AvatarWidgetView,
  render: Composed,
  args: {
    variant: 'floating',
    state: 'active',
    theme: 'auto',
    phase: 'active',
    title: 'Ada',
    remainingMs: null,
    minimizedEndMs: null,
    onStateChange: fn(),
    stage: null,
  },
  argTypes: {
    variant: { control: 'inline-radio', options: ['floating', 'inline'] },
    state: { control: 'inline-radio', options: ['minimized', 'active', 'hidden'] },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    phase: { control: 'select', options: ['idle', 'creating', 'queued', 'connecting', 'active', 'ending', 'ended', 'error'] },
    title: { control: 'text' },
    remainingMs: { control: 'number' },
    minimizedEndMs: { control: 'number' },
    className: { control: 'text' },
    stage: { control: false },
    transcript: { control: false },
    chat: { control: false },
    controls: { control: false },
    extra: { control: false },
  },
} satisfies Meta<typeof AvatarWidgetView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const FloatingMinimized: Story = {
  args: { state: 'minimized', phase: 'idle' },
  play: async ({ canvas, args, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: /Talk to Ada/ }));
    await expect(args.onStateChange).toHaveBeenCalledWith('active');
    await expect(canvas.getByRole('region', { name: 'Ada' })).toBeVisible();
  },
};

export const FloatingIdle: Story = {
  args: { phase: 'idle' },
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'Start call' })).toBeVisible(),
};

export const FloatingQueued: Story = {
  args: { phase: 'queued' },
  play: async ({ canvas }) => expect(canvas.getByRole('progressbar')).toBeVisible(),
};

export const FloatingActive: Story = {
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'End' })).toBeVisible(),
};

export const MaxDurationCountdown: Story = {
  args: { remainingMs: 17_000 },
  play: async ({ canvas }) => expect(canvas.getByRole('timer')).toHaveTextContent('Call ends in 0:17'),
};

export const MinimizedDuringCall: Story = {
  args: { state: 'minimized', minimizedEndMs: 24_000 },
  play: async ({ canvas }) => expect(canvas.getByRole('button')).toHaveTextContent('Call ends in 0:24'),
};

export const InlineActive: Story = {
  args: { variant: 'inline' },
  play: async ({ canvas }) => expect(canvas.getByRole('log')).toBeVisible(),
};

export const InlineEnded: Story = {
  args: { variant: 'inline', phase: 'ended' },
  play: async ({ canvas }) => expect(canvas.getByText('Call ended')).toBeVisible(),
};

export const Dark: Story = {
  args: { theme: 'dark', variant: 'inline' },
  play: async ({ canvasElement }) => expect(canvasElement.querySelector('[data-theme="dark"]')).not.toBeNull(),
};

export const Hidden: Story = {
  args: { state: 'hidden' },
  render: (args) => (
    <>
      <p>The widget below is hidden (state=&quot;hidden&quot;): it renders nothing.</p>
      <Composed {...args} />
    </>
  ),
  play: async ({ canvas }) => expect(canvas.queryByRole('region')).toBeNull(),
};
