import './cleanup';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TranscriptPanelView } from '../../../src/components';
import type { TranscriptLine } from '../../../src/core/session/types';

const line = (id: number, role: 'user' | 'agent', text: string): TranscriptLine => ({ id, role, text, at: id });
const lines = [line(1, 'user', 'Hi there'), line(2, 'agent', 'Hello! How can I help?')];

/** jsdom has no layout: give the log a fake geometry. */
function geometry(el: HTMLElement, scrollHeight: number, clientHeight: number) {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: clientHeight });
}

describe('TranscriptPanel', () => {
  it('conversation: a polite live log with who said what', () => {
    render(<TranscriptPanelView lines={lines} />);
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(log).toHaveAttribute('aria-live', 'polite');
    expect(log).toHaveAttribute('tabindex', '0');
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('YouHi there');
    expect(items[0]).toHaveAttribute('data-role', 'user');
    expect(items[1]).toHaveTextContent('AvatarHello! How can I help?');
  });

  it('shows the empty text with no lines', () => {
    render(<TranscriptPanelView lines={[]} emptyText="Say hello" />);
    expect(screen.getByText('Say hello')).toBeInTheDocument();
  });

  it('caption mode shows only the latest line', () => {
    const { container } = render(<TranscriptPanelView lines={lines} mode="caption" />);
    expect(container.firstChild).toHaveAttribute('aria-live', 'polite');
    expect(container).toHaveTextContent('Avatar: Hello! How can I help?');
    expect(container).not.toHaveTextContent('Hi there');
  });

  it('follows new lines at the bottom, but not after the user scrolled up', async () => {
    const { rerender } = render(<TranscriptPanelView lines={lines} />);
    const log = screen.getByRole('log');
    geometry(log, 1000, 200);
    rerender(<TranscriptPanelView lines={[...lines, line(3, 'agent', 'more')]} />);
    expect(log.scrollTop).toBe(1000);
    log.scrollTop = 100;
    fireEvent.scroll(log);
    rerender(<TranscriptPanelView lines={[...lines, line(3, 'agent', 'more'), line(4, 'user', 'new')]} />);
    expect(log.scrollTop).toBe(100);
    const jump = screen.getByRole('button', { name: 'Jump to latest' });
    geometry(log, 1200, 200);
    await userEvent.click(jump);
    expect(log.scrollTop).toBe(1200);
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
  });
});
