import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn } from 'storybook/test';
import { DeviceSelectView, MessagesProvider, PreJoinView } from '../../src/components';
import { ar } from '../../src/components/i18n/translations';

/** The device selects and the widget's pre-join step in each state (pure views). */
const meta = {
  title: 'Views/Devices',
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

const device = (kind: MediaDeviceKind, deviceId: string, label: string) => ({ kind, deviceId, label });
const mics = [
  device('audioinput', 'default', 'Default - Desk mic'),
  device('audioinput', 'desk', 'Desk mic'),
  device('audioinput', 'head', 'Headset mic'),
];
const speakers = [device('audiooutput', 'default', 'Default - Speakers'), device('audiooutput', 'head', 'Headset')];
const hidden = [device('audioinput', 'a1', ''), device('audioinput', 'a2', '')];
const selects = (
  <>
    <DeviceSelectView kind="audioinput" devices={mics} value="head" />
    <DeviceSelectView kind="audiooutput" devices={speakers} />
  </>
);

/** Before the microphone is allowed the browser hides device names: numbered options and a hint say so. */
export const MicrophoneNamesHidden: Story = {
  render: () => <DeviceSelectView kind="audioinput" devices={hidden} />,
  play: async ({ canvas }) =>
    expect(canvas.getByRole('combobox', { name: 'Microphone' })).toHaveAccessibleDescription(
      'Device names appear once you allow the microphone.',
    ),
};
export const Microphone: Story = {
  render: () => <DeviceSelectView kind="audioinput" devices={mics} value="head" onChange={fn()} />,
  play: async ({ canvas }) => expect(canvas.getByRole('combobox', { name: 'Microphone' })).toHaveValue('head'),
};
export const Speaker: Story = {
  render: () => <DeviceSelectView kind="audiooutput" devices={speakers} onChange={fn()} />,
  play: async ({ canvas }) => expect(canvas.getByRole('combobox', { name: 'Speaker' })).toHaveValue(''),
};

export const PreJoinAsking: Story = {
  render: () => <PreJoinView status="asking" devices={<DeviceSelectView kind="audioinput" devices={hidden} />} />,
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'Join call' })).toBeDisabled(),
};
export const PreJoinReady: Story = {
  render: () => <PreJoinView status="ready" bands={[0.1, 0.4, 0.8, 0.6, 0.5, 0.3, 0.1]} devices={selects} onJoin={fn()} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Join call' })).toBeEnabled();
    await expect(canvas.getByRole('img', { name: 'Microphone level' })).toBeVisible();
  },
};
export const PreJoinDenied: Story = {
  render: () => <PreJoinView status="denied" devices={selects} onRetry={fn()} onJoinWithoutMic={fn()} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(/The microphone is blocked/);
    await expect(canvas.getByRole('button', { name: 'Join without microphone' })).toBeVisible();
  },
};
export const PreJoinNoMicrophone: Story = {
  render: () => <PreJoinView status="missing" onRetry={fn()} onJoinWithoutMic={fn()} />,
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent(/No microphone was found/),
};
export const PreJoinMicrophoneBusy: Story = {
  render: () => <PreJoinView status="busy" onRetry={fn()} onJoinWithoutMic={fn()} />,
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent(/another app may be using it/),
};
/** Arabic, right to left. */
export const PreJoinReadyArabic: Story = {
  render: () => (
    <MessagesProvider messages={ar}>
      <div dir="rtl" lang="ar">
        <PreJoinView status="ready" bands={[0.1, 0.4, 0.8, 0.6, 0.5, 0.3, 0.1]} devices={selects} />
      </div>
    </MessagesProvider>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'انضم إلى المكالمة' })).toBeVisible(),
};
export const PreJoinDeniedArabic: Story = {
  render: () => (
    <MessagesProvider messages={ar}>
      <div dir="rtl" lang="ar">
        <PreJoinView status="denied" devices={selects} />
      </div>
    </MessagesProvider>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'انضم بدون ميكروفون' })).toBeVisible(),
};
