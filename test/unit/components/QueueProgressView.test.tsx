import './cleanup';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueueProgressView } from '../../../src/components';

describe('QueueProgress', () => {
  it('shows elapsed time, the estimate and a progressbar', () => {
    render(<QueueProgressView phase="queued" elapsedMs={12_000} estimateMs={150_000} progress={0.08} slow={false} />);
    const bar = screen.getByRole('progressbar', { name: 'Starting the avatar' });
    expect(bar).toHaveAttribute('aria-valuenow', '8');
    // One line: the clock and one note, no second estimate beside it.
    expect(screen.getByText('0:12')).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('usually a few seconds');
    expect(document.body.textContent).not.toMatch(/2:30|Usually ready/);
  });

  it('after 20 s queued says there is more traffic than usual, with the longest wait, in plain words', () => {
    const { container } = render(<QueueProgressView phase="queued" elapsedMs={21_000} estimateMs={150_000} progress={0.14} slow />);
    expect(screen.getByRole('status').textContent).toBe('More traffic than usual: up to 2:30');
    expect(container.textContent).not.toMatch(/cold start|service|usually a few seconds/);
    expect(container.firstChild).toHaveAttribute('data-slow', 'true');
  });

  it('is honest when the wait exceeds the estimate, and names each phase', () => {
    const { rerender } = render(<QueueProgressView phase="creating" elapsedMs={0} estimateMs={5000} progress={0} slow={false} />);
    expect(screen.getByText('Calling…')).toBeInTheDocument();
    rerender(<QueueProgressView phase="connecting" elapsedMs={9000} estimateMs={5000} progress={1} slow={false} />);
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
    expect(screen.getByText('taking longer than usual')).toBeInTheDocument();
  });
});
