import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { QueueProgressView } from '../../src/components';

const meta = {
  title: 'Views/QueueProgress',
  component: QueueProgressView,
  decorators: [
    (Story) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
  args: { phase: 'queued', elapsedMs: 4000, estimateMs: 12_000, progress: 0.33, slow: false },
  argTypes: {
    phase: { control: 'select', options: ['creating', 'queued', 'connecting'] },
    elapsedMs: { control: { type: 'range', min: 0, max: 180_000, step: 1000 } },
    estimateMs: { control: { type: 'range', min: 1000, max: 150_000, step: 1000 } },
    progress: { control: { type: 'range', min: 0, max: 1, step: 0.01 } },
    slow: { control: 'boolean' },
    className: { control: 'text' },
  },
} satisfies Meta<typeof QueueProgressView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Calling: Story = {
  args: { phase: 'creating', elapsedMs: 500, progress: 0.04 },
  play: async ({ canvas }) => expect(canvas.getByText('Calling…')).toBeVisible(),
};
export const WarmStart: Story = {
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('usually a few seconds'),
};
export const MoreTrafficThanUsual: Story = {
  args: { elapsedMs: 21_000, estimateMs: 150_000, progress: 0.14, slow: true },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('More traffic than usual: up to 2:30'),
};
export const LongerThanEstimate: Story = {
  args: { elapsedMs: 160_000, estimateMs: 150_000, progress: 0.99, slow: true },
  play: async ({ canvas }) => expect(canvas.getByText('taking longer than usual')).toBeVisible(),
};
export const Connecting: Story = {
  args: { phase: 'connecting', elapsedMs: 11_000, progress: 0.92 },
  play: async ({ canvas }) => expect(canvas.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '92'),
};
