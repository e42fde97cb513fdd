import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, fn } from 'storybook/test';
import { MessagesProvider, SessionListView, type SessionListViewProps } from '../../src/components';
import { ar, ja } from '../../src/components/i18n/translations';
import { sampleRoomList, sampleSessionList } from '../../src/testing';

/** Holds kind and page in state (seeded from the args), like the connected list. */
function Stateful(args: SessionListViewProps) {
  const [kind, setKind] = useState(args.kind);
  const [page, setPage] = useState(args.page);
  useEffect(() => setKind(args.kind), [args.kind]);
  useEffect(() => setPage(args.page), [args.page]);
  return (
    <SessionListView
      {...args}
      kind={kind}
      page={page}
      items={
        kind === args.kind ? args.items : args.items.length ? (kind === 'rooms' ? sampleRoomList.rooms : sampleSessionList.sessions) : []
      }
      onKindChange={(k) => (args.onKindChange(k), setKind(k))}
      onPageChange={(p) => (args.onPageChange(p), setPage(p))}
    />
  );
}

const meta = {
  title: 'Views/SessionList',
  component: SessionListView,
  render: Stateful,
  args: {
    kind: 'rooms',
    items: sampleRoomList.rooms,
    page: 1,
    pagination: { page: 1, limit: 5, total: 23, total_pages: 5, has_more: true },
    loading: false,
    error: null,
    onKindChange: fn(),
    onPageChange: fn(),
    onRefresh: fn(),
  },
  argTypes: {
    kind: { control: 'inline-radio', options: ['rooms', 'sessions'] },
    items: { control: 'object' },
    pagination: { control: 'object' },
    page: { control: { type: 'number', min: 1 } },
    loading: { control: 'boolean' },
    error: { control: 'object' },
    className: { control: 'text' },
  },
} satisfies Meta<typeof SessionListView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Rooms: Story = {
  play: async ({ canvas, args, userEvent }) => {
    await expect(canvas.getByRole('tab', { name: 'Rooms' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2);
  },
};

export const Sessions: Story = {
  args: { kind: 'sessions' },
  play: async ({ canvas }) => expect(canvas.getByRole('columnheader', { name: 'Provider' })).toBeVisible(),
};

export const KeyboardTabs: Story = {
  play: async ({ canvas, args, userEvent }) => {
    canvas.getByRole('tab', { name: 'Rooms' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(args.onKindChange).toHaveBeenCalledWith('sessions');
    await expect(canvas.getByRole('tab', { name: 'Sessions' })).toHaveFocus();
  },
};

export const Loading: Story = {
  args: { items: [], loading: true },
  play: async ({ canvas }) => expect(canvas.getByText('Loading…')).toBeVisible(),
};

export const Empty: Story = {
  args: { items: [], pagination: { page: 1, limit: 25, total: 0, total_pages: 0, has_more: false } },
  play: async ({ canvas }) => expect(canvas.getByText('Nothing here yet.')).toBeVisible(),
};

export const Forbidden: Story = {
  args: { items: [], error: { code: 'forbidden', detail: 'admin access required' } },
  play: async ({ canvas }) =>
    expect(canvas.getByRole('alert')).toHaveTextContent('Could not load the list (forbidden): admin access required'),
};

/** The admin list in Arabic: tabs, headers, statuses, dates and numbers from the catalogue, right to left. */
export const Arabic: Story = {
  render: (args) => (
    <MessagesProvider messages={ar}>
      <div dir="rtl" lang="ar">
        <Stateful {...args} />
      </div>
    </MessagesProvider>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('tab', { name: ar.rooms })).toHaveAttribute('aria-selected', 'true');
    await expect(canvas.getByRole('columnheader', { name: ar.columns.status })).toBeVisible();
  },
};

/** The admin list in Japanese, on the sessions tab. */
export const Japanese: Story = {
  args: { kind: 'sessions', items: sampleSessionList.sessions },
  render: (args) => (
    <MessagesProvider messages={ja}>
      <Stateful {...args} />
    </MessagesProvider>
  ),
  play: async ({ canvas }) => expect(canvas.getByRole('tab', { name: ja.sessions })).toHaveAttribute('aria-selected', 'true'),
};
