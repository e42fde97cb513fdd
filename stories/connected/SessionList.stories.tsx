import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { SessionList } from '../../src/components';
import { createFakeProxy, type FakeProxy } from '../../src/testing';

/** A fake proxy with `rooms` rooms and `sessions` sessions, some completed. */
function seeded(rooms: number, sessions: number): FakeProxy {
  const proxy = createFakeProxy();
  for (let i = 0; i < rooms; i++)
    proxy.seedSession({ kind: 'room', agent_id: `agent-${(i % 3) + 1}`, status: i % 4 === 0 ? 'ACTIVE' : 'COMPLETED' });
  for (let i = 0; i < sessions; i++) proxy.seedSession({ kind: 'session', status: i % 3 === 0 ? 'FAILED' : 'COMPLETED' });
  return proxy;
}

const meta = {
  title: 'Connected/SessionList',
  component: SessionList,
  args: { proxyUrl: 'http://proxy.fake.test', limit: 5, initialKind: 'rooms' },
  argTypes: {
    proxyUrl: { control: 'text' },
    limit: { control: { type: 'number', min: 1, max: 100 } },
    initialKind: { control: 'inline-radio', options: ['rooms', 'sessions'] },
    className: { control: 'text' },
    fetch: { control: false },
    headers: { control: 'object' },
  },
  loaders: [async () => ({ proxy: seeded(12, 4) })],
  render: (args, { loaded }) => <SessionList {...args} fetch={(loaded as { proxy: FakeProxy }).proxy.fetch} />,
} satisfies Meta<typeof SessionList>;
export default meta;
type Story = StoryObj<typeof meta>;

export const RoomsPaged: Story = {
  play: async ({ canvas, userEvent }) => {
    await waitFor(() => expect(canvas.getByText('Page 1 of 3 · 12 total')).toBeVisible());
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(canvas.getByText('Page 2 of 3 · 12 total')).toBeVisible());
  },
};

export const Sessions: Story = {
  args: { initialKind: 'sessions' },
  play: async ({ canvas }) => waitFor(() => expect(canvas.getByText('Page 1 of 1 · 4 total')).toBeVisible()),
};

export const Empty: Story = {
  loaders: [async () => ({ proxy: seeded(0, 0) })],
  play: async ({ canvas }) => waitFor(() => expect(canvas.getByText('Nothing here yet.')).toBeVisible()),
};

export const NotAdmin: Story = {
  loaders: [
    async () => {
      const proxy = seeded(2, 0);
      proxy.failNext('GET /rooms', 403, 'admin access required');
      return { proxy };
    },
  ],
  play: async ({ canvas }) => waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent('admin access required')),
};
