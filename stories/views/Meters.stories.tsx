import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { BarVisualizerView, ConnectionQualityView, MessagesProvider } from '../../src/components';
import { ar, fr } from '../../src/components/i18n/translations';

/** The bar visualizer and the connection-quality indicator in each state (pure views). */
const meta = {
  title: 'Views/Meters',
  decorators: [
    (Story) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const sample = { rttMs: 48, jitterMs: 6, packetLossPct: 0.4, fps: 25, bitrateKbps: 820, at: 0 };

export const BarsAtRest: Story = {
  render: () => <BarVisualizerView bands={[]} state="idle" />,
  play: async ({ canvas }) => expect(canvas.getByRole('img', { name: 'Avatar audio: Idle' })).toBeVisible(),
};
export const BarsListening: Story = {
  render: () => <BarVisualizerView bands={[0.05, 0.1, 0.08, 0.04, 0.02]} state="listening" />,
  play: async ({ canvas }) => expect(canvas.getByRole('img', { name: 'Avatar audio: Listening' })).toBeVisible(),
};
export const BarsThinking: Story = {
  render: () => <BarVisualizerView bands={[]} state="thinking" />,
  play: async ({ canvas }) => expect(canvas.getByRole('img', { name: 'Avatar audio: Thinking…' })).toBeVisible(),
};
export const BarsSpeaking: Story = {
  render: () => <BarVisualizerView bands={[0.35, 0.9, 0.7, 0.45, 0.2]} state="speaking" />,
  play: async ({ canvasElement }) => {
    const bars = [...canvasElement.querySelectorAll<HTMLElement>('.liveai-bars__bar')].map((b) => b.getBoundingClientRect().height);
    await expect(Math.max(...bars)).toBeGreaterThan(2 * Math.min(...bars));
  },
};
export const BarsMicrophoneSeven: Story = {
  render: () => <BarVisualizerView bands={[0.2, 0.5, 0.8, 1, 0.8, 0.5, 0.2]} label="Your microphone" />,
  play: async ({ canvasElement }) => expect(canvasElement.querySelectorAll('.liveai-bars__bar')).toHaveLength(7),
};

export const QualityExcellent: Story = {
  render: () => <ConnectionQualityView quality="excellent" stats={sample} />,
  play: async ({ canvas }) =>
    expect(canvas.getByRole('img')).toHaveAccessibleName('Connection excellent (48 ms round trip, 0.4 % loss, 6 ms jitter)'),
};
export const QualityGood: Story = {
  render: () => <ConnectionQualityView quality="good" stats={{ ...sample, rttMs: 240, packetLossPct: 1.5 }} />,
  play: async ({ canvasElement }) => expect(canvasElement.querySelectorAll('[data-on]')).toHaveLength(2),
};
export const QualityPoor: Story = {
  render: () => <ConnectionQualityView quality="poor" stats={{ ...sample, rttMs: 620, packetLossPct: 9, jitterMs: 70 }} />,
  play: async ({ canvasElement }) => expect(canvasElement.querySelectorAll('[data-on]')).toHaveLength(1),
};
export const QualityReconnecting: Story = {
  render: () => <ConnectionQualityView quality="lost" />,
  play: async ({ canvas }) => expect(canvas.getByRole('img')).toHaveAccessibleName('Connection reconnecting'),
};
export const QualityUnknown: Story = {
  render: () => <ConnectionQualityView quality="unknown" stats={null} />,
  play: async ({ canvas }) => expect(canvas.getByRole('img')).toHaveAccessibleName('Connection unknown'),
};

/** The meters in French: words and numbers (decimal comma) from the catalogue. */
export const QualityFrench: Story = {
  render: () => (
    <MessagesProvider messages={fr}>
      <ConnectionQualityView quality="good" stats={{ ...sample, rttMs: 240, packetLossPct: 1.5 }} />{' '}
      <BarVisualizerView bands={[0.35, 0.9, 0.7, 0.45, 0.2]} state="speaking" />
    </MessagesProvider>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('img', { name: /^Connexion bonne/ })).toHaveAccessibleName(
      'Connexion bonne (aller-retour 240 ms, 1,5 % de perte, gigue 6 ms)',
    );
    await expect(canvas.getByRole('img', { name: 'Son de l’avatar : Parle' })).toBeVisible();
  },
};

/** Arabic, right to left. */
export const QualityArabic: Story = {
  render: () => (
    <MessagesProvider messages={ar}>
      <div dir="rtl" lang="ar">
        <ConnectionQualityView quality="poor" stats={{ ...sample, rttMs: 620, packetLossPct: 9, jitterMs: 70 }} />{' '}
        <BarVisualizerView bands={[0.05, 0.1, 0.08, 0.04, 0.02]} state="listening" />
      </div>
    </MessagesProvider>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('img', { name: /^الاتصال ضعيف/ })).toBeVisible(),
};
