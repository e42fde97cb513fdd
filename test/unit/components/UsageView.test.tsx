import './cleanup';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Usage, UsageView, type UsageData } from '../../../src/components';

const t = (sessions: number, credits: number, seconds: number) => ({ sessions, credits, seconds });
const data: UsageData = {
  from: '2026-11-27',
  to: '2026-11-28',
  days: [
    {
      day: '2026-11-27',
      ...t(2, 6, 300),
      agents: { 'agent-demo': t(1, 2, 100), 'agent-cartoon': t(1, 4, 200) },
      clients: { 'user:ada': t(2, 6, 300) },
      reasons: { user: 2 },
    },
    {
      day: '2026-11-28',
      ...t(1, 3, 3725),
      agents: { 'agent-demo': t(1, 3, 3725) },
      clients: { 'user:bo': t(1, 3, 3725) },
      reasons: { max_duration: 1 },
    },
  ],
  recent: [
    {
      started_at: '2026-11-28T09:00:00Z',
      ended_at: '2026-11-28T10:02:05Z',
      agent: 'agent-demo',
      client: 'user:bo',
      reason: 'max_duration',
      credits: 3,
      seconds: 3725,
    },
    {
      started_at: '2026-11-27T09:00:00Z',
      ended_at: '2026-11-27T09:00:09Z',
      agent: 'agent-demo',
      client: 'user:ada',
      reason: 'brand_new',
      credits: null,
      seconds: 9,
    },
  ],
};

describe('UsageView', () => {
  it('charts credits per day and sums the days by agent and by client', () => {
    render(<UsageView data={data} />);
    const chart = screen.getByRole('region', { name: 'Credits per day' });
    expect(within(chart).getAllByRole('listitem')).toHaveLength(2);
    expect(within(chart).getByText('2026-11-28: 3 credits')).toBeInTheDocument();
    const agents = within(screen.getByRole('region', { name: 'By agent' }))
      .getAllByRole('row')
      .slice(1);
    // Largest spend first: agent-demo spent 2 + 3 credits over the two days.
    expect(
      agents.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['agent-demo', '2', '5 credits', '1:03:45'],
      ['agent-cartoon', '1', '4 credits', '3:20'],
    ]);
    expect(within(screen.getByRole('region', { name: 'By client' })).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('2026-11-27 – 2026-11-28: 9 credits, 3 sessions')).toBeInTheDocument();
  });

  it('lists ended sessions with their end reason; an unknown reason shows as it came, no cost as a dash', () => {
    render(<UsageView data={data} />);
    const rows = within(screen.getByRole('region', { name: 'Ended sessions' }))
      .getAllByRole('row')
      .slice(1);
    expect(within(rows[0]!).getByText('Maximum length')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('brand_new')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('—')).toBeInTheDocument();
  });

  it('takes translated labels', () => {
    render(<UsageView data={data} labels={{ byAgent: 'Par agent', reasons: { max_duration: 'Durée maximale' } }} />);
    expect(screen.getByRole('region', { name: 'Par agent' })).toBeInTheDocument();
    expect(screen.getByText('Durée maximale')).toBeInTheDocument();
  });
});

describe('Usage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads {endpoint}/usage and shows the report', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(data), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    render(<Usage endpoint="/api/avatar/" days={2} />);
    expect(await screen.findByRole('region', { name: 'By agent' })).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/api/avatar/usage?days=2', expect.objectContaining({ credentials: 'same-origin' }));
  });

  it("shows the proxy's refusal when the admin callback does not admit the page", async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ detail: 'Usage is for administrators only' }), { status: 403 }));
    render(<Usage endpoint="/api/avatar" />);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Usage is for administrators only'));
  });
});
