import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { AvatarStageView, TranscriptPanelView } from '../../src/components';
import { longTranscript, sampleAvatarImage, sampleTranscript } from '../../src/testing';

const meta = {
  title: 'Views/TranscriptPanel',
  component: TranscriptPanelView,
  decorators: [
    (Story) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
  args: { lines: sampleTranscript, mode: 'conversation', userLabel: 'You', agentLabel: 'Ada', label: 'Transcript' },
  argTypes: {
    lines: { control: 'object' },
    mode: { control: 'inline-radio', options: ['conversation', 'caption'] },
    userLabel: { control: 'text' },
    agentLabel: { control: 'text' },
    emptyText: { control: 'text' },
    label: { control: 'text' },
    className: { control: 'text' },
  },
} satisfies Meta<typeof TranscriptPanelView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Conversation: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-live', 'polite');
    await expect(canvas.getAllByRole('listitem')).toHaveLength(sampleTranscript.length);
  },
};

export const Empty: Story = {
  args: { lines: [] },
  play: async ({ canvas }) => expect(canvas.getByText('The conversation will appear here.')).toBeVisible(),
};

export const LongFollowsLatest: Story = {
  args: { lines: longTranscript() },
  play: async ({ canvas }) => {
    const log = canvas.getByRole('log');
    await waitFor(() => expect(log.scrollTop + log.clientHeight).toBeGreaterThanOrEqual(log.scrollHeight - 2));
  },
};

export const Caption: Story = {
  args: { mode: 'caption' },
  // Captions hold two copies of a line: the one on screen (revealed as the avatar speaks; whole here) and a whole
  // one for screen readers.
  play: async ({ canvasElement }) => {
    const shown = canvasElement.querySelector('.liveai-captions__line[data-role="agent"]');
    await expect(shown).toHaveTextContent(/Anything else I can help with/);
    await expect(shown).toBeVisible();
  },
};

export const CaptionOverStage: Story = {
  args: { mode: 'caption' },
  render: (args) => (
    <div className="sb-stage">
      <AvatarStageView phase="active" imageUrl={sampleAvatarImage}>
        <TranscriptPanelView {...args} />
      </AvatarStageView>
    </div>
  ),
  // Captions hold two copies of a line: the one on screen (revealed as the avatar speaks; whole here) and a whole
  // one for screen readers.
  play: async ({ canvasElement }) => {
    const shown = canvasElement.querySelector('.liveai-captions__line[data-role="agent"]');
    await expect(shown).toHaveTextContent(/Anything else I can help with/);
    await expect(shown).toBeVisible();
  },
};
