import './cleanup';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AvatarWidgetView } from '../../../src/components';

const slots = { stage: <div>STAGE</div>, chat: <div>CHAT</div>, controls: <div>CONTROLS</div>, transcript: <div>LOG</div> };

describe('AvatarWidgetView', () => {
  it('minimized: a launcher that opens the panel', async () => {
    const onStateChange = vi.fn();
    const { container } = render(<AvatarWidgetView state="minimized" phase="idle" title="Ada" onStateChange={onStateChange} {...slots} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'minimized');
    expect(screen.queryByText('STAGE')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Talk to Ada/ }));
    expect(onStateChange).toHaveBeenCalledWith('active');
  });

  it('minimized during a call shows when it will end', () => {
    render(<AvatarWidgetView state="minimized" phase="active" minimizedEndMs={28_000} {...slots} />);
    expect(screen.getByRole('button')).toHaveTextContent('Call ends in 0:28 · Open');
  });

  it('active: the panel with all slots, a minimize button and the theme/variant attributes', async () => {
    const onStateChange = vi.fn();
    const { container } = render(
      <AvatarWidgetView state="active" phase="active" variant="inline" theme="dark" title="Ada" onStateChange={onStateChange} {...slots} />,
    );
    const root = container.firstChild as HTMLElement;
    expect(root).toHaveAttribute('data-variant', 'inline');
    expect(root).toHaveAttribute('data-theme', 'dark');
    expect(root).toHaveAttribute('data-phase', 'active');
    // The controls float over the stage; the conversation and the chat beside it.
    expect(screen.getByRole('region', { name: 'Ada' })).toHaveTextContent('STAGECONTROLSLOGCHAT');
    await userEvent.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(onStateChange).toHaveBeenCalledWith('minimized');
  });

  it('counts down in the last 30 s of the maximum duration', () => {
    const { rerender } = render(<AvatarWidgetView state="active" phase="active" remainingMs={45_000} {...slots} />);
    expect(screen.queryByRole('timer')).toBeNull();
    rerender(<AvatarWidgetView state="active" phase="active" remainingMs={12_500} {...slots} />);
    expect(screen.getByRole('timer')).toHaveTextContent('Call ends in 0:13');
  });

  it('before and after a call: only the stage, no controls and no empty rows under it', () => {
    for (const phase of ['idle', 'ended', 'error'] as const) {
      const { unmount } = render(
        <AvatarWidgetView state="active" phase={phase} title="Ada" stage={<div>STAGE</div>} controls={<div>CONTROLS</div>} />,
      );
      expect(screen.getByRole('region', { name: 'Ada' })).toHaveTextContent('AdaSTAGE');
      expect(document.querySelector('.liveai-widget__controls, .liveai-widget__side')).toBeNull();
      unmount();
    }
  });

  it('the launcher shows the avatar’s face', () => {
    render(<AvatarWidgetView state="minimized" phase="idle" title="Ada" imageUrl="https://x.test/ada.png" {...slots} />);
    expect(screen.getByRole('button', { name: 'Talk to Ada' }).querySelector('img')).toHaveAttribute('src', 'https://x.test/ada.png');
  });

  it('Escape minimizes the floating panel, not an inline one', async () => {
    const onStateChange = vi.fn();
    const { rerender } = render(<AvatarWidgetView state="active" phase="active" title="Ada" onStateChange={onStateChange} {...slots} />);
    screen.getByRole('button', { name: 'Minimize' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(onStateChange).toHaveBeenCalledWith('minimized');
    onStateChange.mockClear();
    rerender(<AvatarWidgetView state="active" phase="active" variant="inline" title="Ada" onStateChange={onStateChange} {...slots} />);
    screen.getByRole('button', { name: 'Minimize' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(onStateChange).not.toHaveBeenCalled();
  });

  it('hidden renders nothing', () => {
    const { container } = render(<AvatarWidgetView state="hidden" phase="idle" {...slots} />);
    expect(container).toBeEmptyDOMElement();
  });
});
