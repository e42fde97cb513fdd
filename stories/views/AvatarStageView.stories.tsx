import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, waitFor } from 'storybook/test';
import { AvatarStageView, MessagesProvider, TranscriptPanelView } from '../../src/components';
import { ar } from '../../src/components/i18n/translations';
import { fakeAvatarTracks, fakePreviewClip } from '../media';
import { sampleAvatarImage, sampleTranscript } from '../../src/testing';

const PHASES = ['idle', 'creating', 'queued', 'connecting', 'active', 'ending', 'ended', 'error'] as const;
const END_REASONS = ['user', 'unload', 'unmount', 'idle_timeout', 'completed', 'timed_out', 'failed', 'remote'] as const;

const meta = {
  title: 'Views/AvatarStage',
  component: AvatarStageView,
  decorators: [
    (Story) => (
      <div className="sb-stage">
        <Story />
      </div>
    ),
  ],
  args: {
    phase: 'idle',
    imageUrl: sampleAvatarImage,
    audioBlocked: false,
    label: 'Avatar',
    onStart: fn(),
    onRetry: fn(),
    onRestart: fn(),
    onUnblockAudio: fn(),
  },
  argTypes: {
    phase: { control: 'select', options: PHASES },
    imageUrl: { control: 'text' },
    audioBlocked: { control: 'boolean' },
    queue: { control: 'object' },
    error: { control: 'object' },
    cost: { control: 'number' },
    endReason: { control: 'select', options: END_REASONS },
    agentState: { control: 'select', options: ['idle', 'listening', 'thinking', 'speaking'] },
    showAgentState: { control: 'boolean' },
    label: { control: 'text' },
    className: { control: 'text' },
    videoTrack: { control: false },
    children: { control: false },
  },
} satisfies Meta<typeof AvatarStageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {
  play: async ({ canvas, args, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Start call' }));
    await expect(args.onStart).toHaveBeenCalledOnce();
  },
};

/** The first impression: the agent's picture with its name over it, and Start. */
export const IdleWithName: Story = {
  args: { name: 'Ada' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Ada')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Start call' })).toBeVisible();
  },
};

/** No picture set: the name's initial, not an empty black box. */
export const IdleWithoutPicture: Story = {
  args: { name: 'Ada', imageUrl: null },
  play: async ({ canvasElement }) => expect(canvasElement.querySelector('.liveai-stage__initial')).toHaveTextContent('A'),
};

/** `previewSrc`: a short looping clip over the picture before the call (muted, inline; not with reduced motion). */
export const IdleWithPreview: Story = {
  args: { name: 'Ada' },
  loaders: [async () => ({ clip: await fakePreviewClip() })],
  render: (args, { loaded }) => <AvatarStageView {...args} previewSrc={loaded.clip as string | null} />,
  play: async ({ canvasElement }) => {
    const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
    const preview = canvasElement.querySelector<HTMLVideoElement>('.liveai-stage__preview');
    if (reduce) return expect(preview).toBeNull();
    await waitFor(() => expect(preview).not.toBeNull());
    await expect(preview!.muted && preview!.loop).toBe(true);
    await waitFor(() => expect(preview!.readyState).toBeGreaterThanOrEqual(2), { timeout: 5000 });
  },
};

export const Creating: Story = {
  args: { phase: 'creating', queue: { elapsedMs: 800, estimateMs: 10_000, progress: 0.08, slow: false } },
  play: async ({ canvas }) => expect(canvas.getByText('Calling…')).toBeVisible(),
};

/** The create call itself is slow: the clock runs from the click and the note says what is happening, no cold start promised. */
export const CreatingSlow: Story = {
  args: { phase: 'creating', queue: { elapsedMs: 9500, estimateMs: 150_000, progress: 0.17, slow: false } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('taking longer than usual');
    await expect(canvas.getByText('0:10')).toBeVisible();
    await expect(canvas.queryByText(/2:30/)).toBeNull();
  },
};

export const Queued: Story = {
  args: { phase: 'queued', queue: { elapsedMs: 6000, estimateMs: 15_000, progress: 0.4, slow: false } },
  play: async ({ canvas }) => expect(canvas.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40'),
};

export const QueuedColdStart: Story = {
  args: { phase: 'queued', queue: { elapsedMs: 48_000, estimateMs: 150_000, progress: 0.32, slow: true } },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent(/More traffic than usual: up to/),
};

export const Connecting: Story = {
  args: { phase: 'connecting', queue: { elapsedMs: 9000, estimateMs: 10_000, progress: 0.9, slow: false } },
  play: async ({ canvas }) => expect(canvas.getByText('Connecting…')).toBeVisible(),
};

export const Active: Story = {
  args: { phase: 'active' },
  loaders: [async () => fakeAvatarTracks()],
  render: (args, { loaded }) => <AvatarStageView {...args} videoTrack={loaded.video} />,
  play: async ({ canvasElement }) => {
    const video = canvasElement.querySelector('video')!;
    await waitFor(() => expect(video.readyState).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    await expect(canvasElement.querySelector('[data-has-video]')).not.toBeNull();
  },
};

/** A portrait on a solid green backdrop (SVG), as an avatar rendered for keying would look. */
const greenBackdrop = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"><rect width="368" height="560" fill="#00ff00"/>` +
    `<ellipse cx="184" cy="600" rx="170" ry="160" fill="#2f5fd0"/><ellipse cx="184" cy="250" rx="120" ry="160" fill="#f0c8a4"/>` +
    `<circle cx="140" cy="230" r="10" fill="#222"/><circle cx="228" cy="230" r="10" fill="#222"/></svg>`,
)}`;

/** `chromaKey`: the green backdrop removed, the page (stripes here) shows through the stage. */
export const TransparentBackdrop: Story = {
  args: { phase: 'active', chromaKey: true, imageUrl: null },
  decorators: [
    (Story) => (
      <div style={{ padding: 16, background: 'repeating-linear-gradient(45deg, #fde68a 0 24px, #93c5fd 24px 48px)' }}>
        <Story />
      </div>
    ),
  ],
  loaders: [async () => fakeAvatarTracks(greenBackdrop)],
  render: (args, { loaded }) => <AvatarStageView {...args} videoTrack={loaded.video} />,
  play: async ({ canvasElement }) => {
    const stage = canvasElement.querySelector('.liveai-stage')!;
    await waitFor(() => expect(stage.getAttribute('data-chroma-key')).toMatch(/^(webgl|2d)$/), { timeout: 5000 });
    await waitFor(() => expect(stage.hasAttribute('data-has-video')).toBe(true), { timeout: 5000 });
  },
};

export const ActiveWithCaptions: Story = {
  args: { phase: 'active', children: <TranscriptPanelView lines={sampleTranscript} mode="caption" /> },
  // Captions hold two copies of a line: the one on screen (revealed as the avatar speaks; whole here) and a whole
  // one for screen readers.
  play: async ({ canvasElement }) => {
    const shown = canvasElement.querySelector('.liveai-captions__line[data-role="agent"]');
    await expect(shown).toHaveTextContent(/Anything else I can help with/);
    await expect(shown).toBeVisible();
  },
};

export const AudioBlocked: Story = {
  args: { phase: 'active', audioBlocked: true },
  play: async ({ canvas, args, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Turn on sound' }));
    await expect(args.onUnblockAudio).toHaveBeenCalledOnce();
  },
};

export const Ending: Story = {
  args: { phase: 'ending' },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('Ending the call…'),
};

export const Ended: Story = {
  args: { phase: 'ended', cost: 1.25, endReason: 'user' },
  play: async ({ canvas, args, userEvent }) => {
    // Visitors see no cost (showCost is off by default).
    await expect(canvas.getByRole('status')).not.toHaveTextContent(/credit/);
    await userEvent.click(canvas.getByRole('button', { name: 'Start again' }));
    await expect(args.onRestart).toHaveBeenCalledOnce();
  },
};

/** The last 30 s of the session's maximum length: a countdown over the video; screen readers hear it at 30 s and 10 s. */
export const TimeLimitCountdown: Story = {
  args: { phase: 'active' },
  render: (args) => <AvatarStageView {...args} expiresAt={Date.now() + 27_500} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/^Call ends in 0:2\d$/)).toBeInTheDocument();
    await expect(canvas.getByRole('status')).toHaveTextContent('The call ends in 30 seconds (time limit).');
  },
};

export const EndedAtTimeLimit: Story = {
  args: { phase: 'ended', cost: 12, endReason: 'completed', timeLimitReached: true },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('This call reached its time limit.'),
};

export const EndedByIdleTimeout: Story = {
  args: { phase: 'ended', cost: null, endReason: 'idle_timeout' },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('period of inactivity'),
};

/** The session ended FAILED at the service: a sentence and Try again; the technical text is not shown. */
export const ErrorSessionFailed: Story = {
  args: { phase: 'error', error: { code: 'upstream_error', detail: 'the avatar service says the session FAILED' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('The avatar could not start.');
    await expect(canvas.getByRole('alert')).not.toHaveTextContent('FAILED');
  },
};

/** The create call timed out at the proxy (504): "try again" once, on the button. */
export const ErrorTimeout: Story = {
  args: { phase: 'error', error: { code: 'timeout', status: 504, detail: 'the avatar service did not answer within 15000 ms' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('The avatar service did not answer in time.');
    await expect(canvas.getByRole('alert').textContent!.match(/try again/gi)).toHaveLength(1);
  },
};

export const ErrorConnection: Story = {
  args: { phase: 'error', error: { code: 'transport_failed', detail: 'could not establish pc connection' } },
  play: async ({ canvas }) =>
    expect(canvas.getByRole('alert')).toHaveTextContent('Could not connect to the call.Check your internet connection.'),
};

/** A browser without WebRTC: retrying cannot help, so no "Try again"; the visitor reads what to do instead. */
export const ErrorNoWebRtc: Story = {
  args: { phase: 'error', error: { code: 'transport_failed', retryable: false, detail: 'This browser cannot make video calls' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Open this page in a current Chrome, Edge, Firefox or Safari.');
    await expect(canvas.queryByRole('button', { name: 'Try again' })).toBeNull();
  },
};

export const ErrorNotFound: Story = {
  args: { phase: 'error', error: { code: 'not_found', status: 404, detail: 'Agent not found' } },
  play: async ({ canvas }) =>
    expect(canvas.getByRole('alert')).toHaveTextContent('This avatar could not be found.It may have been removed.'),
};

export const ErrorOutOfCredits: Story = {
  args: { phase: 'error', error: { code: 'insufficient_funds', detail: 'Agent owner has insufficient funds' } },
  play: async ({ canvas, args, userEvent }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('The avatar is not available right now.');
    await userEvent.click(canvas.getByRole('button', { name: 'Try again' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

export const ErrorBusy: Story = {
  args: { phase: 'error', error: { code: 'rate_limited', detail: 'Too many requests: concurrency limit reached' } },
  play: async ({ canvas }) => expect(canvas.getByRole('alert')).toHaveTextContent('The avatar is busy right now'),
};

/** The site's own ceiling (all visitors together) answered 503: busy, not a service failure. */
export const ErrorSiteBusy: Story = {
  args: {
    phase: 'error',
    error: {
      code: 'upstream_error',
      status: 503,
      detail: 'This site is running as many avatar sessions as it allows; try again in a few minutes',
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('The avatar is busy right now');
    await expect(canvas.getByRole('alert')).not.toHaveTextContent('The avatar service had a problem');
  },
};

/** The live picture with the agent's state: a ring inside the edge (`agentState`), announced politely. */
const agentStory = (agentState: 'listening' | 'thinking' | 'speaking', extra?: Story['play']): Story => ({
  args: { phase: 'active', agentState },
  loaders: [async () => fakeAvatarTracks()],
  render: (args, { loaded }) => <AvatarStageView {...args} videoTrack={loaded.video} />,
  play: async (ctx) => {
    const stage = ctx.canvasElement.querySelector('.liveai-stage')!;
    await waitFor(() => expect(stage).toHaveAttribute('data-agent-state', agentState), { timeout: 5000 });
    await extra?.(ctx);
  },
});

export const AgentListening: Story = agentStory('listening', async ({ canvas }) =>
  waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Listening'), { timeout: 3000 }),
);
export const AgentThinking: Story = agentStory('thinking', async ({ canvas }) =>
  waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Thinking…'), { timeout: 3000 }),
);
/** Speaking: a stronger glow; nothing is announced (the voice says it). */
export const AgentSpeaking: Story = agentStory('speaking', async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent(''));

/** Arabic: the announcement in the catalogue's language, right to left. */
export const AgentThinkingArabic: Story = {
  ...agentStory('thinking', async ({ canvas }) =>
    waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(ar.agentStates.thinking), { timeout: 3000 }),
  ),
  args: { phase: 'active', agentState: 'thinking', label: ar.avatar },
  render: (args, { loaded }) => (
    <MessagesProvider messages={ar}>
      <div dir="rtl" lang="ar">
        <AvatarStageView {...args} videoTrack={loaded.video} />
      </div>
    </MessagesProvider>
  ),
};

/** `showAgentState={false}`: the live picture without the ring or its announcements. */
export const AgentStateOff: Story = {
  args: { phase: 'active', agentState: 'speaking', showAgentState: false },
  loaders: [async () => fakeAvatarTracks()],
  render: (args, { loaded }) => <AvatarStageView {...args} videoTrack={loaded.video} />,
  play: async ({ canvasElement }) => {
    const stage = canvasElement.querySelector('.liveai-stage')!;
    await waitFor(() => expect(stage).toHaveAttribute('data-has-video'), { timeout: 5000 });
    await expect(stage).not.toHaveAttribute('data-agent-state');
    await expect(canvasElement.querySelector('.liveai-stage__agent')).toBeNull();
  },
};
