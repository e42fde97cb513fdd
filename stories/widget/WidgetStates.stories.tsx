import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { AvatarWidget } from '../../src/components';
import { LiveAiError, type SessionState } from '../../src/core';
import { sampleAvatarImage } from '../../src/testing';
import { fakeAvatarTracks, fakeMicrophone } from '../media';
import { storySession, type Loaded } from '../session';
import { initialMediaState } from '../../src/core/session/store';

/**
 * Every state of the drop-in widget as a visitor sees it, one story each, reached from the session's state (no clicks
 * on named buttons), so they render in any language and direction: what the contact sheet
 * (`node scripts/contact-sheet.mjs`) captures at 360 and 1280 px, light and dark, English and Arabic.
 */
const meta = {
  title: 'Widget/States',
  component: AvatarWidget,
  args: { variant: 'floating', initialState: 'active', title: 'Ada', imageUrl: sampleAvatarImage, theme: 'auto' },
  loaders: [async () => ({ session: storySession() })],
  render: (args, { loaded, globals }) => (
    <AvatarWidget {...args} theme={globals.theme === 'dark' ? 'dark' : 'light'} session={(loaded as Loaded).session} />
  ),
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof AvatarWidget>;
export default meta;
type Story = StoryObj<typeof meta>;

const live = (state: Partial<SessionState> = {}) => [
  async () => ({
    session: storySession({
      phase: 'active',
      sessionStatus: 'ACTIVE',
      activeAt: Date.now(),
      live: true,
      ...state,
    } as Partial<SessionState>),
  }),
];

const LONG_REPLY = {
  en: 'Of course. I can answer questions about our plans, walk you through the setup step by step, and book a demo with the team whenever it suits you best.',
  ar: 'بالتأكيد. يمكنني الإجابة عن أسئلتك حول خططنا، وإرشادك خلال الإعداد خطوة بخطوة، وحجز عرض توضيحي مع الفريق في الوقت الذي يناسبك.',
};
const QUESTION = { en: 'What can you do for me?', ar: 'ماذا يمكنك أن تفعل من أجلي؟' };

/** Clicks the control named by `data-control` once it is there (the call's controls come in their own chunk). */
const press = async (root: HTMLElement, control: string) => {
  await waitFor(() => expect(root.querySelector(`[data-control="${control}"]`)).not.toBeNull(), { timeout: 5000 });
  (root.querySelector(`[data-control="${control}"]`) as HTMLButtonElement).click();
};

/** The live picture (a real video track), the agent in `state`, and the latest words. */
const liveStory = (state: 'listening' | 'thinking' | 'speaking', extra?: Story['play'], picture?: string): Story => ({
  loaders: live(),
  play: async (ctx) => {
    const { session } = ctx.loaded as Loaded;
    const lang = ctx.globals.lang === 'ar' ? 'ar' : 'en';
    const tracks = await fakeAvatarTracks(picture);
    session.transport.emitTrack('video', tracks.video);
    // The microphone is on, as after Start (its ring follows the fake microphone's level).
    await session.setMicEnabled(true);
    session.transport.emitRoom('micTrack', { track: tracks.audio });
    if (state === 'speaking') {
      session.transport.emitTrack('audio', tracks.audio);
      session.transport.emitEvent({ type: 'agent_transcription', transcription: LONG_REPLY[lang] });
    } else session.transport.emitEvent({ type: 'user_transcription', transcription: QUESTION[lang], is_final: true } as never);
    session.transport.emitRoom('agentState', { state });
    await waitFor(() => expect(ctx.canvasElement.querySelector(`[data-agent-state="${state}"]`)).not.toBeNull(), { timeout: 5000 });
    await extra?.(ctx);
  },
});

/** Before a call, minimized: the launcher shows the avatar's face. */
export const Launcher: Story = { args: { initialState: 'minimized' } };

/** Open before a call: the face, the name, one Start. */
export const Idle: Story = {};

/** The pre-join step (`preJoin`): the microphone check floats over the avatar's picture; the face stays in view. */
export const PreJoin: Story = {
  args: { preJoin: true },
  beforeEach: () => fakeMicrophone(),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.liveai-prejoin[data-status="ready"]')).not.toBeNull(), { timeout: 5000 });
  },
};

/** Inline before a call: the picture and Start, no empty conversation box. */
export const IdleInline: Story = { args: { variant: 'inline' } };

/** Waiting for the avatar: one line with the clock, and Cancel. */
export const Waiting: Story = {
  loaders: [async () => ({ session: storySession({ phase: 'queued', sessionStatus: 'QUEUED', queuedAt: Date.now() - 6000 }) })],
};

/** A cold start: after 20 s queued, the note says so, with the longest wait. */
export const WaitingLong: Story = {
  loaders: [async () => ({ session: storySession({ phase: 'queued', sessionStatus: 'QUEUED', queuedAt: Date.now() - 26_000 }) })],
};

export const Listening: Story = liveStory('listening');
export const Thinking: Story = liveStory('thinking');
/** Speaking a long reply: the captions show its latest words, low on the picture. */
export const Speaking: Story = liveStory('speaking');

/** Speaking where the agent can be interrupted (`stopSpeaking`): "Stop talking" across from the label. */
export const SpeakingStop: Story = { ...liveStory('speaking'), args: { stopSpeaking: true } };

/** The portrait on a solid green backdrop, as an avatar rendered for the chroma key is. */
const GREEN_BACKDROP = sampleAvatarImage.replace('%235b6ee1', '%2300ff00').replace('%231d2240', '%2300ff00');

/**
 * A keyed avatar (`chromaKey`) speaking: it stands on the page with no box behind it; the name, Minimize, the label,
 * the captions and the controls each have their own backing.
 */
export const SpeakingKeyed: Story = {
  ...liveStory(
    'speaking',
    async ({ canvasElement }) => {
      await waitFor(() => expect(canvasElement.querySelector('.liveai-stage[data-has-video][data-chroma-key]')).not.toBeNull());
    },
    GREEN_BACKDROP,
  ),
  args: { chromaKey: true },
};

/** The chat opened from its toggle, over the video above the controls. */
export const ChatOpen: Story = liveStory('listening', async ({ canvasElement }) => {
  await press(canvasElement, 'chat');
  await waitFor(() => expect(canvasElement.querySelector('.liveai-chat__field')).not.toBeNull());
});

/** The browser refused the microphone: the call goes on, the chat is open and a line says why. */
export const MicBlocked: Story = {
  loaders: [async () => ({ session: storySession() })],
  play: async ({ canvasElement, loaded }) => {
    const { session } = loaded as Loaded;
    const media = navigator.mediaDevices as MediaDevices | undefined;
    const original = media?.getUserMedia;
    if (media) media.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    try {
      (canvasElement.querySelector('.liveai-stage__overlay button') as HTMLButtonElement).click();
      await waitFor(() => expect(session.store.getState().phase).toBe('queued'));
      session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
      await waitFor(() => expect(canvasElement.querySelector('[data-kind="mic"]')).not.toBeNull());
      await waitFor(() => expect(canvasElement.querySelector('.liveai-chat__field')).not.toBeNull());
      const tracks = await fakeAvatarTracks();
      session.transport.emitTrack('video', tracks.video);
      session.transport.emitRoom('agentState', { state: 'listening' });
      await waitFor(() => expect(canvasElement.querySelector('[data-has-video]')).not.toBeNull(), { timeout: 5000 });
    } finally {
      if (media && original) media.getUserMedia = original;
    }
  },
};

/** "More options" open: speaker, volume, devices, "Stay connected", "Change look". */
export const MoreOptions: Story = {
  ...liveStory('listening', async ({ canvasElement }) => {
    await press(canvasElement, 'more');
    await waitFor(() => expect(canvasElement.querySelector('[data-control="keep-alive"]')).not.toBeNull());
  }),
  args: { imageSwapper: true },
};

/** "Change look" open: a sheet over the lower part of the video; the face stays in view. */
export const ChangeLook: Story = {
  ...liveStory('listening', async ({ canvasElement }) => {
    await press(canvasElement, 'more');
    await press(canvasElement, 'change-look');
    await waitFor(() => expect(canvasElement.querySelector('.liveai-widget__sheet:not([hidden])')).not.toBeNull());
  }),
  args: { imageSwapper: true },
};

/** The browser blocked the avatar's sound: one button, with an icon, under the face. */
export const SoundBlocked: Story = {
  // No audio track reaches the session here (one that plays would clear the block).
  ...liveStory('thinking'),
  loaders: live({ media: { ...initialMediaState(), connection: 'connected', audioBlocked: true } }),
};

/** Minimized during a call: the call goes on, the launcher says so. */
export const MinimizedInCall: Story = { args: { initialState: 'minimized' }, loaders: live() };

/** After the call: why it ended and "Start again"; no cost for visitors. */
export const Ended: Story = {
  loaders: [async () => ({ session: storySession({ phase: 'ended', sessionStatus: 'COMPLETED', cost: 1.25, endReason: 'user' }) })],
};

/** A failure trying again can fix: an icon, the sentence, "Try again". */
export const ErrorRetry: Story = {
  loaders: [
    async () => ({ session: storySession({ phase: 'error', error: new LiveAiError('transport_failed', 'could not join the room') }) }),
  ],
};

/** A dead end (no funds): the sentence and what to do, nothing else to press. */
export const ErrorDeadEnd: Story = {
  loaders: [
    async () => ({ session: storySession({ phase: 'error', error: new LiveAiError('insufficient_funds', 'not enough credits') }) }),
  ],
};
