import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { AvatarStage, TranscriptPanel } from '../../src/components';
import { fakeAvatarTracks } from '../media';
import { activate, storySession, WithSession, type Loaded } from '../session';

const meta = {
  title: 'Connected/AvatarStage',
  component: AvatarStage,
  decorators: [
    (Story) => (
      <div className="sb-stage">
        <Story />
      </div>
    ),
  ],
  args: { label: 'Avatar' },
  argTypes: { label: { control: 'text' }, imageUrl: { control: 'text' }, className: { control: 'text' }, children: { control: false } },
  loaders: [async () => ({ session: storySession() })],
  render: (args, { loaded }) => (
    <WithSession session={(loaded as Loaded).session}>
      <AvatarStage {...args} />
    </WithSession>
  ),
} satisfies Meta<typeof AvatarStage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const StartToLive: Story = {
  play: async ({ canvas, canvasElement, loaded, userEvent }) => {
    const { session } = loaded as Loaded;
    await userEvent.click(canvas.getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(canvas.getByRole('progressbar')).toBeVisible());
    activate(session);
    const { video } = await fakeAvatarTracks();
    session.transport.emitTrack('video', video);
    await waitFor(() => expect(canvasElement.querySelector('[data-has-video]')).not.toBeNull());
  },
};

export const LiveWithCaptions: Story = {
  loaders: [async () => ({ session: storySession({ phase: 'active', sessionStatus: 'ACTIVE' }) })],
  render: (args, { loaded }) => (
    <WithSession session={(loaded as Loaded).session}>
      <AvatarStage {...args}>
        <TranscriptPanel mode="caption" />
      </AvatarStage>
    </WithSession>
  ),
  play: async ({ canvasElement, loaded }) => {
    (loaded as Loaded).session.transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello! Ask me anything.' });
    // The caption shows the line as the avatar says it; this story's avatar has no voice, so the whole line shows
    // after 4 s of quiet.
    await waitFor(
      () => {
        const shown = canvasElement.querySelector('.liveai-captions__line[data-role="agent"]');
        expect(shown).toHaveTextContent('Hello! Ask me anything.');
        expect(shown).toBeVisible();
      },
      { timeout: 8000 },
    );
  },
};

export const AudioBlocked: Story = {
  loaders: [
    async () => ({
      session: storySession({
        phase: 'active',
        sessionStatus: 'ACTIVE',
        media: {
          connection: 'connected',
          videoTrack: null,
          audioTrack: null,
          audioBlocked: true,
          micEnabled: false,
          micTrack: null,
          micPending: false,
          speakerMuted: false,
          volume: 1,
        },
      }),
    }),
  ],
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'Turn on sound' })).toBeVisible(),
};

export const Failed: Story = {
  loaders: [async () => ({ session: storySession({}, { agents: ['someone-else'] }) })],
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent('This avatar could not be found.'));
  },
};
