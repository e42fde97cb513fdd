import './cleanup';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatInputView } from '../../../src/components';

describe('ChatInput', () => {
  it('Enter sends the trimmed text and clears the field; Shift+Enter adds a line', async () => {
    const onSend = vi.fn();
    render(<ChatInputView onSend={onSend} />);
    const field = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(field, '  hello{Shift>}{Enter}{/Shift}there  ');
    expect(onSend).not.toHaveBeenCalled();
    expect(field).toHaveValue('  hello\nthere  ');
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('hello\nthere');
    expect(field).toHaveValue('');
  });

  it('the Send button works and is disabled while empty', async () => {
    const onSend = vi.fn();
    render(<ChatInputView onSend={onSend} />);
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox'), 'hi');
    await userEvent.click(send);
    expect(onSend).toHaveBeenCalledWith('hi');
  });

  it('is disabled unless the call is active', async () => {
    const onSend = vi.fn();
    render(<ChatInputView onSend={onSend} disabled />);
    const field = screen.getByRole('textbox');
    expect(field).toBeDisabled();
    expect(field).toHaveAttribute('placeholder', 'Chat opens in a call');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('puts the text back when sending fails', async () => {
    const onSend = vi.fn(() => Promise.reject(new Error('offline')));
    render(<ChatInputView onSend={onSend} />);
    const field = screen.getByRole('textbox');
    await userEvent.type(field, 'keep me{Enter}');
    await act(() => onSend.mock.results[0]!.value.catch(() => undefined));
    expect(field).toHaveValue('keep me');
  });
});
