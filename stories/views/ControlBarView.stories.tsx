import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, fn } from 'storybook/test';
import { ControlBarView, type ControlBarViewProps } from '../../src/components';

/** Holds the toggled values in state (seeded from the args), so the story behaves like a connected bar. */
function Stateful(args: ControlBarViewProps) {
  const { micEnabled, speakerMuted, volume, keepAlive } = args;
  const [s, setS] = useState({ micEnabled, speakerMuted, volume, keepAlive });
  useEffect(() => setS({ micEnabled, speakerMuted, volume, keepAlive }), [micEnabled, speakerMuted, volume, keepAlive]);
  const update = (patch: Partial<typeof s>) => setS((prev) => ({ ...prev, ...patch }));
  return (
    <ControlBarView
      {...args}
      {...s}
      onMicChange={(v) => (args.onMicChange?.(v), update({ micEnabled: v }))}
      onSpeakerMutedChange={(v) => (args.onSpeakerMutedChange?.(v), update({ speakerMuted: v }))}
      onVolumeChange={(v) => (args.onVolumeChange?.(v), update({ volume: v }))}
      onKeepAliveChange={(v) => (args.onKeepAliveChange?.(v), update({ keepAlive: v }))}
    />
  );
}

const meta = {
  title: 'Views/ControlBar',
  component: ControlBarView,
  render: Stateful,
  decorators: [
    (Story) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
  args: {
    micEnabled: true,
    speakerMuted: false,
    volume: 0.8,
    keepAlive: false,
    disabled: false,
    onMicChange: fn(),
    onSpeakerMutedChange: fn(),
    onVolumeChange: fn(),
    onKeepAliveChange: fn(),
    onEnd: fn(),
  },
  argTypes: {
    micEnabled: { control: 'boolean' },
    speakerMuted: { control: 'boolean' },
    volume: { control: { type: 'range', min: 0, max: 1, step: 0.05 } },
    keepAlive: { control: 'boolean' },
    disabled: { control: 'boolean' },
    endDisabled: { control: 'boolean' },
    className: { control: 'text' },
  },
} satisfies Meta<typeof ControlBarView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Active: Story = {
  play: async ({ canvas, args, userEvent }) => {
    const mic = canvas.getByRole('button', { name: 'Microphone' });
    await expect(mic).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(mic);
    await expect(args.onMicChange).toHaveBeenCalledWith(false);
    await expect(canvas.getByRole('button', { name: 'Microphone' })).toHaveAttribute('data-state', 'off');
    await userEvent.click(canvas.getByRole('button', { name: 'Microphone' }));
  },
};

export const MutedAndKeptAlive: Story = {
  args: { micEnabled: false, speakerMuted: true, keepAlive: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Mute speaker' })).toHaveAttribute('aria-pressed', 'true');
    await expect(canvas.getByRole('slider', { name: 'Volume' })).toHaveValue('0');
    await expect(canvas.getByRole('button', { name: 'Stay connected' })).toHaveAttribute('aria-pressed', 'true');
  },
};

export const KeyboardEnd: Story = {
  play: async ({ canvas, args, userEvent }) => {
    canvas.getByRole('button', { name: 'End' }).focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onEnd).toHaveBeenCalledOnce();
  },
};

export const QueuedCanCancel: Story = {
  args: { disabled: true, endDisabled: false },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Microphone' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'End' })).toBeEnabled();
  },
};

export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'End' })).toBeDisabled(),
};
