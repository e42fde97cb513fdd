import './cleanup';
import { act, createEvent, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImageSwapperView } from '../../../src/components';
import { LiveAiError } from '../../../src/core/errors';

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
const zone = () => screen.getByRole('group', { name: /drop or paste an image/ });
const apply = () => screen.getByRole('button', { name: 'Apply new look' });

describe('ImageSwapper', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => vi.restoreAllMocks());

  it('a file too large to send inline even compressed stays picked and is submitted as {blob} (the session hosts it)', async () => {
    const onSubmit = vi.fn();
    const prepare = vi.fn(() =>
      Promise.reject(new LiveAiError('payload_too_large', 'does not compress under 917504 bytes', { status: 413 })),
    );
    const { container } = render(<ImageSwapperView onSubmit={onSubmit} prepare={prepare} />);
    const big = png();
    await userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, big);
    expect(prepare).toHaveBeenCalledOnce();
    // The preparation's own answer, then what the view made of it.
    await act(() => prepare.mock.results[0]!.value.catch(() => undefined));
    expect(screen.queryByText(/could not be read/)).toBeNull();
    await userEvent.click(apply());
    expect(onSubmit).toHaveBeenCalledWith({ blob: big });
  });

  // Found by the browser image-swap test (issue 5): a file that claims to be a JPEG but cannot be decoded stayed
  // picked, showing a broken preview with "Apply new look" enabled.
  it('a file that cannot be read: the problem is explained, no preview, Apply stays disabled', async () => {
    const onSubmit = vi.fn();
    const prepare = vi.fn(() => Promise.reject(new Error('not decodable')));
    const { container } = render(<ImageSwapperView onSubmit={onSubmit} prepare={prepare} />);
    const broken = new File(['not a jpeg at all'], 'broken.jpg', { type: 'image/jpeg' });
    await userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, broken);
    await act(() => prepare.mock.results[0]!.value.catch(() => undefined));
    expect(screen.getByRole('status')).toHaveTextContent('This image could not be read');
    expect(screen.queryByRole('img', { name: /368×560/ })).toBeNull();
    expect(apply()).toBeDisabled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a chosen file shows a 368×560 crop preview and is submitted as {blob}', async () => {
    const onSubmit = vi.fn();
    const { container } = render(<ImageSwapperView onSubmit={onSubmit} />);
    expect(apply()).toBeDisabled();
    const file = png();
    await userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, file);
    expect(screen.getByRole('img', { name: /368×560/ })).toHaveAttribute('src', 'blob:preview');
    await userEvent.click(apply());
    expect(onSubmit).toHaveBeenCalledWith({ blob: file });
  });

  it('accepts a dropped file and rejects a non-image', () => {
    const onSubmit = vi.fn();
    render(<ImageSwapperView onSubmit={onSubmit} />);
    fireEvent.drop(zone(), { dataTransfer: { files: [new File(['x'], 'a.txt', { type: 'text/plain' })], getData: () => '' } });
    expect(screen.getByRole('status')).toHaveTextContent('Choose an image file');
    fireEvent.dragOver(zone(), { dataTransfer: { files: [] } });
    expect(zone().parentElement).toHaveAttribute('data-drag-over', 'true');
    fireEvent.drop(zone(), { dataTransfer: { files: [png()], getData: () => '' } });
    expect(screen.getByRole('img')).toBeInTheDocument();
    expect(apply()).toBeEnabled();
  });

  it('accepts a pasted image URL and a typed URL', async () => {
    const onSubmit = vi.fn();
    render(<ImageSwapperView onSubmit={onSubmit} />);
    const paste = createEvent.paste(zone());
    Object.assign(paste, { clipboardData: { files: [], getData: () => 'https://cdn.test/face.jpg' } });
    fireEvent(zone(), paste);
    expect(screen.getByRole('img')).toHaveAttribute('src', 'https://cdn.test/face.jpg');
    await userEvent.type(screen.getByRole('textbox', { name: 'Image URL' }), 'https://cdn.test/other.png{Enter}');
    await userEvent.click(apply());
    expect(onSubmit).toHaveBeenCalledWith({ url: 'https://cdn.test/other.png' });
  });

  it('shows progress from image_change_* and disables Apply while busy', async () => {
    const { container, rerender } = render(<ImageSwapperView onSubmit={vi.fn()} status="requested" />);
    expect(screen.getByRole('status')).toHaveTextContent('Imagining…');
    await userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, png());
    expect(apply()).toBeDisabled();
    rerender(<ImageSwapperView onSubmit={vi.fn()} status="complete" />);
    expect(screen.getByRole('status')).toHaveTextContent('New look applied.');
    expect(apply()).toBeEnabled();
  });

  it('explains a 413 and an image_change_error', () => {
    const tooBig = new LiveAiError('payload_too_large', 'decoded image is 1200000 bytes; limit is 921600 bytes', { status: 413 });
    const { rerender } = render(<ImageSwapperView onSubmit={vi.fn()} status="error" error={tooBig} />);
    expect(screen.getByRole('status')).toHaveTextContent('The image is too large');
    expect(screen.getByRole('status')).toHaveTextContent('under 900 KB');
    expect(screen.getByRole('status')).not.toHaveTextContent('limit is 921600 bytes');
    rerender(<ImageSwapperView onSubmit={vi.fn()} status="error" error="could not download image" />);
    expect(screen.getByRole('status')).toHaveTextContent('The avatar could not use this image. Try a different picture.');
  });
});
