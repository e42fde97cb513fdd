import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn } from 'storybook/test';
import { UsageView, type UsageData, type UsageDay } from '../../src/components';

/** Two weeks of a small site: three agents, a few signed-in users and an address group. */
function sample(): UsageData {
  const agents = ['agent-demo', 'agent-cartoon', 'custom_image'];
  const clients = ['user:ada', 'user:grace', 'user:linus', '203.0.113.0'];
  const days: UsageDay[] = [];
  for (let i = 0; i < 14; i++) {
    const day = `2026-11-${String(15 + i).padStart(2, '0')}`;
    const d: UsageDay = { day, sessions: 0, credits: 0, seconds: 0, agents: {}, clients: {}, reasons: {} };
    const count = i === 5 ? 0 : ((i * 7) % 5) + 1;
    for (let s = 0; s < count; s++) {
      const agent = agents[(i + s) % agents.length]!;
      const client = clients[(i * 3 + s) % clients.length]!;
      const seconds = 120 + ((i * 53 + s * 31) % 600);
      const credits = Math.round((seconds / 60) * 1.5 * 100) / 100;
      for (const t of [
        d,
        (d.agents[agent] ??= { sessions: 0, credits: 0, seconds: 0 }),
        (d.clients[client] ??= { sessions: 0, credits: 0, seconds: 0 }),
      ]) {
        t.sessions += 1;
        t.credits = Math.round((t.credits + credits) * 100) / 100;
        t.seconds += seconds;
      }
      const reason = ['user', 'user', 'max_duration', 'service_ended'][s % 4]!;
      d.reasons[reason] = (d.reasons[reason] ?? 0) + 1;
    }
    days.push(d);
  }
  return {
    from: days[0]!.day,
    to: days.at(-1)!.day,
    days,
    recent: [
      {
        started_at: '2026-11-28T14:02:00Z',
        ended_at: '2026-11-28T14:09:31Z',
        agent: 'agent-demo',
        client: 'user:ada',
        reason: 'user',
        credits: 11.28,
        seconds: 451,
      },
      {
        started_at: '2026-11-28T13:20:00Z',
        ended_at: '2026-11-28T13:50:00Z',
        agent: 'agent-cartoon',
        client: 'user:grace',
        reason: 'max_duration',
        credits: 45,
        seconds: 1800,
      },
      {
        started_at: '2026-11-28T12:58:00Z',
        ended_at: '2026-11-28T13:03:12Z',
        agent: 'custom_image',
        client: '203.0.113.0',
        reason: 'service_ended',
        credits: 7.8,
        seconds: 312,
      },
      {
        started_at: '2026-11-28T12:40:00Z',
        ended_at: '2026-11-28T12:40:41Z',
        agent: 'agent-demo',
        client: 'user:linus',
        reason: 'orphaned',
        credits: 0.5,
        seconds: 41,
      },
      {
        started_at: '2026-11-28T11:15:00Z',
        ended_at: '2026-11-28T11:15:09Z',
        agent: 'agent-demo',
        client: 'user:ada',
        reason: 'service_failed',
        credits: null,
        seconds: 9,
      },
    ],
  };
}

const meta = {
  title: 'Views/UsageView',
  component: UsageView,
  args: { data: sample(), loading: false, error: null, onRefresh: fn() },
  argTypes: { data: { control: 'object' }, loading: { control: 'boolean' }, error: { control: 'object' }, className: { control: 'text' } },
} satisfies Meta<typeof UsageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TwoWeeks: Story = {
  play: async ({ canvas, args, userEvent }) => {
    const chart = canvas.getByRole('region', { name: 'Credits per day' });
    await expect(chart.querySelectorAll('li')).toHaveLength(14);
    // Each bar says its day and credits to a screen reader.
    await expect(canvas.getByText('2026-11-28: 11.23 credits', { exact: false })).toBeInTheDocument();
    const byAgent = canvas.getByRole('region', { name: 'By agent' });
    await expect(byAgent.querySelectorAll('tbody tr')).toHaveLength(3);
    await expect(canvas.getByRole('region', { name: 'By client' }).querySelectorAll('tbody tr')).toHaveLength(4);
    await expect(canvas.getByText('Maximum length')).toBeInTheDocument();
    await expect(canvas.getByText('Never reached a browser')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalled();
  },
};

export const NothingYet: Story = {
  args: {
    data: {
      from: '2026-11-22',
      to: '2026-11-28',
      recent: [],
      days: Array.from({ length: 7 }, (_, i) => ({
        day: `2026-11-${22 + i}`,
        sessions: 0,
        credits: 0,
        seconds: 0,
        agents: {},
        clients: {},
        reasons: {},
      })),
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No sessions ended in these days.')).toBeInTheDocument();
  },
};

export const NotAnAdmin: Story = {
  args: { data: null, error: { status: 403, code: 'forbidden', detail: 'Usage is for administrators only' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Usage is for administrators only');
  },
};
