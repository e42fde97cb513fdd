import './cleanup';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImageSwapperView } from '../../../src/components';

// Found by the browser image-swap test (issue 5): a file that claims to be a JPEG but cannot be decoded stayed
// picked, showing a broken preview with "Apply new look" enabled.
describe('ImageSwapperView with a file that cannot be read', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => vi.restoreAllMocks());

  it('explains the problem, drops the preview and keeps Apply disabled', async () => {
    const onSubmit = vi.fn();
    const prepare = vi.fn(() => Promise.reject(new Error('not decodable')));
    const { container } = render(<ImageSwapperView onSubmit={onSubmit} prepare={prepare} />);
    const broken = new File(['not a jpeg at all'], 'broken.jpg', { type: 'image/jpeg' });
    await userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, broken);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('This image could not be read'));
    expect(screen.queryByRole('img', { name: /368×560/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply new look' })).toBeDisabled();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
