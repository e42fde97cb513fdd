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
    expect(screen.getByRole('region', { name: 'Ada' })).toHaveTextContent('STAGELOGCHATCONTROLS');
    expect(screen.getByText('Live')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(onStateChange).toHaveBeenCalledWith('minimized');
  });

  it('counts down in the last 30 s of the maximum duration', () => {
    const { rerender } = render(<AvatarWidgetView state="active" phase="active" remainingMs={45_000} {...slots} />);
    expect(screen.queryByRole('timer')).toBeNull();
    rerender(<AvatarWidgetView state="active" phase="active" remainingMs={12_500} {...slots} />);
    expect(screen.getByRole('timer')).toHaveTextContent('Call ends in 0:13');
  });

  it('hidden renders nothing', () => {
    const { container } = render(<AvatarWidgetView state="hidden" phase="idle" {...slots} />);
    expect(container).toBeEmptyDOMElement();
  });
});
