import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { AvatarAudio, AvatarVideo, BarVisualizer, ConnectionQuality } from '../../src/components';
import { initialMediaState } from '../../src/core/session/store';
import { fakeAvatarTracks } from '../media';
import { loadedSession, narrowActiveMeta, storySession, WithSession } from '../session';

/** The call's meters and media primitives, each over a fake-backed active session with real media tracks. */
const meta = {
  title: 'Connected/CallParts',
  ...narrowActiveMeta,
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;
const session = loadedSession;

/** An audible track: a 220 Hz tone whose loudness rises and falls like syllables (made in the page, played nowhere). */
function voiceTrack(): MediaStreamTrack | null {
  if (typeof AudioContext === 'undefined') return null;
  const ac = new AudioContext();
  const osc = Object.assign(ac.createOscillator(), { type: 'sawtooth' as OscillatorType });
  osc.frequency.value = 220;
  const gain = ac.createGain();
  const lfo = ac.createOscillator();
  lfo.frequency.value = 3;
  const depth = ac.createGain();
  depth.gain.value = 0.25;
  gain.gain.value = 0.3;
  lfo.connect(depth).connect(gain.gain);
  const dest = ac.createMediaStreamDestination();
  osc.connect(gain).connect(dest);
  osc.start();
  lfo.start();
  void ac.resume();
  return dest.stream.getAudioTracks()[0] ?? null;
}

export const VisualizerSpeaking: Story = {
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <BarVisualizer bars={7} />
    </WithSession>
  ),
  play: async ({ canvasElement, loaded }) => {
    const s = session(loaded);
    s.transport.emitTrack('audio', voiceTrack());
    s.transport.emitRoom('speaking', { who: 'avatar', speaking: true });
    const bars = () =>
      [...canvasElement.querySelectorAll<HTMLElement>('.liveai-bars__bar')].map((b) =>
        Number(b.style.getPropertyValue('--liveai-bar-level')),
      );
    await waitFor(() => expect(Math.max(...bars())).toBeGreaterThan(0.3), { timeout: 5000 });
    await expect(canvasElement.querySelector('.liveai-bars')).toHaveAttribute('data-state', 'speaking');
  },
};

export const VisualizerMicrophoneOff: Story = {
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <BarVisualizer source="microphone" />
    </WithSession>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('img', { name: 'Your microphone' })).toBeVisible(),
};

export const QualityFromStats: Story = {
  loaders: [
    async () => {
      const s = storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() });
      s.transport.stats = { rttMs: 310, jitterMs: 12, packetLossPct: 2.5, fps: 24, bitrateKbps: 700, at: Date.now() };
      return { session: s };
    },
  ],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <ConnectionQuality />
    </WithSession>
  ),
  // The first sample comes one interval (2 s) after the connection.
  play: async ({ canvas }) =>
    waitFor(() => expect(canvas.getByRole('img')).toHaveAccessibleName('Connection good (310 ms round trip, 2.5 % loss, 12 ms jitter)'), {
      timeout: 5_000,
    }),
};

export const VideoPrimitive: Story = {
  loaders: [
    async () => {
      const s = storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() });
      const { video } = await fakeAvatarTracks();
      s.transport.emitTrack('video', video);
      return { session: s };
    },
  ],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <AvatarVideo aria-label="Avatar" width={184} height={280} />
    </WithSession>
  ),
  play: async ({ canvasElement }) => {
    const video = canvasElement.querySelector('video')!;
    await expect(video.muted).toBe(true);
    await expect(video.playsInline).toBe(true);
    await waitFor(() => expect(video.videoWidth).toBe(368), { timeout: 5000 });
  },
};

export const AudioBlocked: Story = {
  loaders: [
    async () => {
      const { audio } = await fakeAvatarTracks();
      const media = { ...initialMediaState(), connection: 'connected' as const, audioTrack: audio, audioBlocked: true };
      return { session: storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now(), media }) };
    },
  ],
  render: (_, { loaded }) => (
    <WithSession session={session(loaded)}>
      <p>The avatar is speaking.</p>
      <AvatarAudio />
    </WithSession>
  ),
  play: async ({ canvas, userEvent }) => {
    // The browser blocked sound: the button unlocks it inside the click, then goes away.
    await userEvent.click(canvas.getByRole('button', { name: 'Tap to hear the avatar' }));
    await waitFor(() => expect(canvas.queryByRole('button')).toBeNull());
  },
};
