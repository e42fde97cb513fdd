import './cleanup';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ControlBarView } from '../../../src/components';

const handlers = () => ({
  onMicChange: vi.fn(),
  onSpeakerMutedChange: vi.fn(),
  onVolumeChange: vi.fn(),
  onKeepAliveChange: vi.fn(),
  onEnd: vi.fn(),
});

describe('ControlBar', () => {
  it('toggles carry aria-pressed and data-state, and report the next value', async () => {
    const h = handlers();
    render(<ControlBarView micEnabled speakerMuted={false} volume={1} keepAlive={false} {...h} />);
    const mic = screen.getByRole('button', { name: 'Microphone' });
    expect(mic).toHaveAttribute('aria-pressed', 'true');
    expect(mic).toHaveAttribute('data-state', 'on');
    await userEvent.click(mic);
    expect(h.onMicChange).toHaveBeenCalledWith(false);
    const speaker = screen.getByRole('button', { name: 'Mute speaker' });
    expect(speaker).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(speaker);
    expect(h.onSpeakerMutedChange).toHaveBeenCalledWith(true);
    await userEvent.click(screen.getByRole('button', { name: 'Stay connected' }));
    expect(h.onKeepAliveChange).toHaveBeenCalledWith(true);
    await userEvent.click(screen.getByRole('button', { name: 'End' }));
    expect(h.onEnd).toHaveBeenCalledOnce();
  });

  it('is operable with the keyboard', async () => {
    const h = handlers();
    render(<ControlBarView micEnabled={false} speakerMuted={false} volume={1} {...h} />);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Microphone' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(h.onMicChange).toHaveBeenCalledWith(true);
    await userEvent.tab();
    await userEvent.keyboard(' ');
    expect(h.onSpeakerMutedChange).toHaveBeenCalledWith(true);
  });

  it('volume slider reports 0..1 and shows 0 while muted', () => {
    const h = handlers();
    const { rerender } = render(<ControlBarView micEnabled={false} speakerMuted={false} volume={0.8} {...h} />);
    const slider = screen.getByRole('slider', { name: 'Volume' });
    expect(slider).toHaveValue('0.8');
    fireEvent.change(slider, { target: { value: '0.25' } });
    expect(h.onVolumeChange).toHaveBeenCalledWith(0.25);
    rerender(<ControlBarView micEnabled={false} speakerMuted volume={0.8} {...h} />);
    expect(slider).toHaveValue('0');
  });

  it('disabled while not active; controls without handlers are hidden', () => {
    render(<ControlBarView micEnabled={false} speakerMuted={false} volume={1} onEnd={vi.fn()} disabled />);
    expect(screen.getByRole('button', { name: 'End' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Microphone' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Call controls' })).toHaveAttribute('data-disabled', 'true');
  });
});
