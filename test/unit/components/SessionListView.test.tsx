import './cleanup';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SessionListView, type SessionListViewProps } from '../../../src/components';

const rooms = [
  {
    agent_id: 'agent-1',
    session_id: 'sess-a',
    created_at: '2026-01-02T10:00:00Z',
    session_status: 'COMPLETED' as const,
    credits_used: 2.5,
  },
  { agent_id: 'agent-2', session_id: 'sess-b', created_at: '2026-01-02T11:00:00Z', session_status: 'ACTIVE' as const, credits_used: null },
];
const props = (over: Partial<SessionListViewProps> = {}): SessionListViewProps => ({
  kind: 'rooms',
  onKindChange: vi.fn(),
  items: rooms,
  pagination: { page: 1, limit: 25, total: 60, total_pages: 3, has_more: true },
  page: 1,
  onPageChange: vi.fn(),
  ...over,
});

describe('SessionList', () => {
  it('renders rows with status badges and credits', () => {
    render(<SessionListView {...props()} />);
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('sess-a');
    expect(rows[1]).toHaveTextContent('agent-1');
    expect(rows[1]).toHaveTextContent('2.5 credits');
    expect(within(rows[2]!).getByText('Active')).toHaveAttribute('data-status', 'ACTIVE');
    expect(rows[2]).toHaveTextContent('—');
  });

  it('shows a handle (the long opaque id of a proxy list) by its last characters, the whole id as its tooltip', () => {
    const handle = `eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..${'x'.repeat(100)}tail-7Qw9Zk2`;
    render(<SessionListView {...props({ items: [{ ...rooms[0]!, session_id: handle }] })} />);
    const cell = within(screen.getAllByRole('row')[1]!).getByTitle(handle);
    expect(cell.textContent).toBe('…tail-7Qw9Zk2');
  });

  it('tabs: selected state, click and arrow keys', async () => {
    const p = props();
    render(<SessionListView {...p} />);
    const tab = screen.getByRole('tab', { name: 'Rooms' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName('Rooms');
    await userEvent.click(screen.getByRole('tab', { name: 'Sessions' }));
    expect(p.onKindChange).toHaveBeenCalledWith('sessions');
    tab.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(p.onKindChange).toHaveBeenLastCalledWith('sessions');
  });

  it('pagination: previous/next within has_more and the 1000 offset limit', async () => {
    const p = props({ page: 2, pagination: { page: 2, limit: 25, total: 60, total_pages: 3, has_more: true } });
    const { rerender } = render(<SessionListView {...p} />);
    expect(screen.getByText('Page 2 of 3 · 60 total')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(p.onPageChange).toHaveBeenCalledWith(3);
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(p.onPageChange).toHaveBeenCalledWith(1);
    rerender(
      <SessionListView {...props({ page: 40, pagination: { page: 40, limit: 25, total: 5000, total_pages: 200, has_more: true } })} />,
    );
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('sessions kind shows the provider; empty, loading and error states', () => {
    const sessions = [
      { session_id: 's1', created_at: '2026-01-02T10:00:00Z', session_status: 'FAILED' as const, provider: 'RTC_A' as const },
    ];
    const { rerender } = render(<SessionListView {...props({ kind: 'sessions', items: sessions })} />);
    expect(screen.getByRole('columnheader', { name: 'Provider' })).toBeInTheDocument();
    expect(screen.getByText('RTC_A')).toBeInTheDocument();
    rerender(<SessionListView {...props({ items: [], loading: true })} />);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    rerender(<SessionListView {...props({ items: [], error: { code: 'forbidden', detail: 'admin only' } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the list (forbidden): admin only');
  });
});
