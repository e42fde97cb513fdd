import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, waitFor, within } from 'storybook/test';
import { AvatarWidget } from '../../src/components';
import { sampleEvents, sampleTranscript } from '../../src/testing';
import { fakeAvatarTracks } from '../media';
import { activate, storySession, type Loaded } from '../session';

const meta = {
  title: 'Connected/AvatarWidget',
  component: AvatarWidget,
  args: {
    variant: 'floating',
    theme: 'auto',
    title: 'Ada',
    imageSwapper: false,
    onPhaseChange: fn(),
    onTranscript: fn(),
    onError: fn(),
    onImageChange: fn(),
    onEnd: fn(),
    onStateChange: fn(),
  },
  argTypes: {
    variant: { control: 'inline-radio', options: ['floating', 'inline'] },
    initialState: { control: 'inline-radio', options: ['minimized', 'active', 'hidden'] },
    state: { control: 'inline-radio', options: ['minimized', 'active', 'hidden'] },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    title: { control: 'text' },
    imageUrl: { control: 'text' },
    maxDurationMs: { control: 'number' },
    minimizedEndMs: { control: 'number' },
    microphone: { control: 'boolean' },
    showCost: { control: 'boolean' },
    transcriptMode: { control: 'inline-radio', options: ['caption', 'conversation'] },
    imageSwapper: { control: 'boolean' },
    proxyUrl: { control: 'text' },
    agentId: { control: 'text' },
    className: { control: 'text' },
    session: { control: false },
    options: { control: false },
  },
  loaders: [async () => ({ session: storySession() })],
  render: (args, { loaded }) => <AvatarWidget {...args} session={(loaded as Loaded).session} />,
} satisfies Meta<typeof AvatarWidget>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The whole flow against the fake proxy, typed (a text-only widget): open, start, queue, live, chat, transcript. */
export const FullCall: Story = {
  args: { microphone: false },
  play: async ({ canvas, args, loaded, userEvent }) => {
    const { session } = loaded as Loaded;
    await userEvent.click(canvas.getByRole('button', { name: /Talk to Ada/ }));
    await userEvent.click(canvas.getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(canvas.getByText('Waiting for the avatar…')).toBeVisible());
    const tracks = await fakeAvatarTracks();
    activate(session);
    await waitFor(() => expect(canvas.getByRole('textbox')).toBeEnabled());
    session.transport.emitTrack('video', tracks.video);
    for (const e of sampleEvents.slice(0, 4)) session.transport.emitEvent(e);
    await userEvent.type(canvas.getByRole('textbox'), 'What can you do?{Enter}');
    await waitFor(() => expect(session.transport.sentMessages).toContainEqual(expect.objectContaining({ event: 'chat-msg' })));
    await expect(args.onPhaseChange).toHaveBeenCalledWith('active');
    await expect(args.onTranscript).toHaveBeenCalled();
  },
};

export const Minimized: Story = {
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: /Talk to Ada/ })).toBeVisible(),
};

export const OpenIdle: Story = {
  args: { initialState: 'active' },
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'Start call' })).toBeVisible(),
};

export const QueuedColdStart: Story = {
  args: { initialState: 'active' },
  loaders: [
    async () => ({
      session: storySession({ phase: 'queued', sessionStatus: 'QUEUED', startedAt: Date.now() - 26_000, queuedAt: Date.now() - 25_000 }),
    }),
  ],
  play: async ({ canvas }) => expect(canvas.getByText(/More traffic than usual: up to/)).toBeVisible(),
};

export const InlineLive: Story = {
  args: { variant: 'inline', imageSwapper: true, microphone: false },
  loaders: [
    async () => ({
      session: storySession({
        phase: 'active',
        sessionStatus: 'ACTIVE',
        activeAt: Date.now(),
        live: true,
        transcript: sampleTranscript,
      }),
    }),
  ],
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('log')).toHaveTextContent('what you can do');
    // "Change look" is one of the less used controls, under "More options".
    (canvas.getByRole('button', { name: 'More options' }) as HTMLButtonElement).click();
    await expect(await canvas.findByText('Change look')).toBeVisible();
  },
};

export const MaxDurationCountdown: Story = {
  args: { initialState: 'active', maxDurationMs: 600_000 },
  loaders: [async () => ({ session: storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() - 580_000 }) })],
  play: async ({ canvas }) => expect(canvas.getByRole('timer')).toHaveTextContent(/Call ends in 0:[12]\d/),
};

/** `minimizedEndMs`: the operator limits minimized calls; Minimize and the launcher say so. */
export const MinimizedDuringCall: Story = {
  args: { initialState: 'active', minimizedEndMs: 30_000 },
  loaders: [async () => ({ session: storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() }) })],
  play: async ({ canvas, userEvent }) => {
    // Said before it happens: the label and the tooltip.
    const minimize = canvas.getByRole('button', { name: 'Minimize (the call ends if it stays minimized for 30 s)' });
    await expect(minimize).toHaveAttribute('title', 'Minimize (the call ends if it stays minimized for 30 s)');
    await userEvent.click(minimize);
    await expect(canvas.getByRole('button', { name: /Call ends in 0:(31|30|29) · Open/ })).toBeVisible();
  },
};

/** `minimizeKeepsCall`: minimizing keeps the call; the launcher says the call goes on. */
export const MinimizeKeepsCall: Story = {
  args: { initialState: 'active', minimizeKeepsCall: true },
  loaders: [async () => ({ session: storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() }) })],
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Minimize' }));
    await expect(canvas.getByRole('button', { name: /^In call with .* · Open$/ })).toHaveFocus();
  },
};

/** `showCost`: the ended screen says what the call cost (for internal tools; visitors do not see it by default). */
export const Ended: Story = {
  args: { variant: 'inline', showCost: true },
  loaders: [
    async () => ({
      session: storySession({ phase: 'ended', sessionStatus: 'COMPLETED', cost: 2.5, endReason: 'user', transcript: sampleTranscript }),
    }),
  ],
  play: async ({ canvas }) =>
    expect(within(canvas.getByRole('region', { name: 'Ada video' })).getByRole('status')).toHaveTextContent('2.5 credits'),
};

export const AgentNotFound: Story = {
  args: { initialState: 'active' },
  loaders: [async () => ({ session: storySession({}, { agents: ['another-agent'] }) })],
  play: async ({ canvas, args, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent('This avatar could not be found.'));
    await expect(args.onError).toHaveBeenCalled();
  },
};

/** The call's quality stays poor (≥ 5 % loss): after two samples, 2 s apart, a polite, dismissible hint. */
export const ConnectionUnstable: Story = {
  args: { variant: 'inline' },
  loaders: [
    async () => {
      const session = storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now(), live: true });
      session.transport.getStats = async () => ({ rttMs: 180, jitterMs: 30, packetLossPct: 8, fps: 14, bitrateKbps: 300, at: Date.now() });
      return { session };
    },
  ],
  play: async ({ canvas, userEvent }) => {
    const hint = await canvas.findByText(/Your connection is unstable/, undefined, { timeout: 8000 });
    await expect(hint.closest('[role="status"]')).not.toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Dismiss' }));
    await expect(canvas.queryByText(/Your connection is unstable/)).toBeNull();
  },
};
