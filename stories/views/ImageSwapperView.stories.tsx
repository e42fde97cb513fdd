import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn } from 'storybook/test';
import { ImageSwapperView } from '../../src/components';
import { sampleAvatarImageAlt } from '../../src/testing';

const STATUSES = ['idle', 'sending', 'requested', 'created', 'complete', 'error'] as const;

const meta = {
  title: 'Views/ImageSwapper',
  component: ImageSwapperView,
  decorators: [
    (Story) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
  args: { onSubmit: fn(), status: 'idle', disabled: false },
  argTypes: {
    status: { control: 'select', options: STATUSES },
    error: { control: 'object' },
    disabled: { control: 'boolean' },
    className: { control: 'text' },
  },
} satisfies Meta<typeof ImageSwapperView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'Apply new look' })).toBeDisabled(),
};

export const FileChosen: Story = {
  play: async ({ canvas, canvasElement, args, userEvent }) => {
    const blob = await (await fetch(sampleAvatarImageAlt)).blob();
    const file = new File([blob], 'look.svg', { type: 'image/svg+xml' });
    await userEvent.upload(canvasElement.querySelector('input[type=file]') as HTMLInputElement, file);
    await expect(canvas.getByRole('img', { name: /368×560/ })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Apply new look' }));
    await expect(args.onSubmit).toHaveBeenCalledWith({ blob: file });
  },
};

export const FromUrl: Story = {
  play: async ({ canvas, args, userEvent }) => {
    await userEvent.type(canvas.getByRole('textbox', { name: 'Image URL' }), 'https://example.com/look.png{Enter}');
    await userEvent.click(canvas.getByRole('button', { name: 'Apply new look' }));
    await expect(args.onSubmit).toHaveBeenCalledWith({ url: 'https://example.com/look.png' });
  },
};

export const Imagining: Story = {
  args: { status: 'requested' },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('Imagining…'),
};

export const Applied: Story = {
  args: { status: 'complete' },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('New look applied.'),
};

export const TooLarge413: Story = {
  args: { status: 'error', error: { code: 'payload_too_large', detail: 'decoded image is 1048576 bytes; the limit is 921600 bytes' } },
  play: async ({ canvas }) => expect(canvas.getByRole('status')).toHaveTextContent('The image is too large'),
};

export const DownloadFailed: Story = {
  args: { status: 'error', error: 'the image could not be downloaded' },
  play: async ({ canvas }) =>
    expect(canvas.getByRole('status')).toHaveTextContent('The avatar could not use this image. Try a different picture.'),
};

export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvas }) => expect(canvas.getByRole('button', { name: 'Apply new look' })).toBeDisabled(),
};
