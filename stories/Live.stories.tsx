import '../src/core/transports/livekit';
import '../src/core/transports/daily';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { AvatarWidget, SessionList } from '../src/components';

/**
 * The Live playground: the real widget against the local avatar service through the companion proxy, which
 * `npm run dev` mounts inside Storybook's dev server at `/api/avatar`. Press "Start call": the synthetic avatar
 * joins a real LiveKit room and talks back to what you type. Not part of the static story screenshots.
 */
const meta: Meta<typeof AvatarWidget> = {
  title: 'Live/Playground',
  component: AvatarWidget,
  parameters: { layout: 'fullscreen' },
  args: {
    proxyUrl: '/api/avatar',
    agentId: 'agent-demo',
    variant: 'inline',
    title: 'Demo avatar',
    imageSwapper: true,
    transcriptMode: 'conversation',
  },
  argTypes: {
    agentId: { control: 'select', options: ['agent-demo', 'agent-cartoon'] },
    variant: { control: 'inline-radio', options: ['inline', 'floating'] },
    theme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    transcriptMode: { control: 'inline-radio', options: ['conversation', 'caption'] },
    maxDurationMs: { control: 'number' },
  },
  render: (args) => (
    <div style={{ padding: 16 }}>
      <AvatarWidget {...args} />
    </div>
  ),
};
export default meta;

export const Widget: StoryObj<typeof AvatarWidget> = {};
export const Floating: StoryObj<typeof AvatarWidget> = { args: { variant: 'floating' } };
export const Admin: StoryObj<typeof AvatarWidget> = {
  render: () => (
    <div style={{ padding: 16 }}>
      <SessionList proxyUrl="/api/avatar" />
    </div>
  ),
};
