import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { ChatInput, ControlBar, ImageSwapper, QueueProgress, TranscriptPanel } from '../../src/components';
import { loadedSession, narrowActiveMeta, storySession, WithSession } from '../session';
import { sampleTranscript } from '../../src/testing';

/** The smaller connected parts, each over its own fake-backed session (an active one unless said). */
const meta = {
  title: 'Connected/Parts',
  ...narrowActiveMeta,
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;
const session = loadedSession;

export const Transcript: Story = {
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <TranscriptPanel />
    </WithSession>
  ),
  play: async ({ canvas, loaded }) => {
    session(loaded).transport.emitEvent({ type: 'user_transcription', transcription: 'Hi there' });
    session(loaded).transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello! How can I help?' });
    await waitFor(() => expect(canvas.getAllByRole('listitem')).toHaveLength(2));
  },
};

export const TranscriptLong: Story = {
  loaders: [async () => ({ session: storySession({ phase: 'active', transcript: sampleTranscript }) })],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <TranscriptPanel limit={3} />
    </WithSession>
  ),
  play: async ({ canvas }) => expect(canvas.getAllByRole('listitem')).toHaveLength(3),
};

export const Chat: Story = {
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <ChatInput />
    </WithSession>
  ),
  play: async ({ canvas, loaded, userEvent }) => {
    await userEvent.type(canvas.getByRole('textbox'), 'Tell me a joke{Enter}');
    await waitFor(() =>
      expect(session(loaded).transport.sentMessages).toContainEqual(expect.objectContaining({ message: 'Tell me a joke' })),
    );
  },
};

export const ChatBeforeStart: Story = {
  loaders: [async () => ({ session: storySession() })],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <ChatInput />
    </WithSession>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('textbox')).toBeDisabled(),
};

export const Controls: Story = {
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <ControlBar />
    </WithSession>
  ),
  play: async ({ canvas, loaded, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Microphone' }));
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Microphone' })).toHaveAttribute('aria-pressed', 'true'));
    await expect(session(loaded).store.getState().media.micEnabled).toBe(true);
  },
};

export const ControlsIdle: Story = {
  loaders: [async () => ({ session: storySession() })],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <ControlBar />
    </WithSession>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'End' })).toBeDisabled(),
};

export const Queue: Story = {
  loaders: [async () => ({ session: storySession({ phase: 'queued', sessionStatus: 'QUEUED', queuedAt: Date.now() - 8000 }) })],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <QueueProgress />
    </WithSession>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('progressbar')).toBeVisible(),
};

export const ImageSwap: Story = {
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <ImageSwapper />
    </WithSession>
  ),
  play: async ({ canvas, loaded, userEvent }) => {
    await userEvent.type(canvas.getByRole('textbox', { name: 'Image URL' }), 'https://example.com/new-look.png{Enter}');
    await userEvent.click(canvas.getByRole('button', { name: 'Apply new look' }));
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Imagining…'));
    session(loaded).transport.emitEvent({ type: 'image_change_complete' });
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('New look applied.'));
  },
};
