import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn } from 'storybook/test';
import { ChatInputView } from '../../src/components';

const meta = {
  title: 'Views/ChatInput',
  component: ChatInputView,
  decorators: [
    (Story) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
  args: { onSend: fn(), disabled: false, placeholder: 'Type a message', label: 'Message', maxLength: 2000 },
  argTypes: {
    disabled: { control: 'boolean' },
    placeholder: { control: 'text' },
    disabledPlaceholder: { control: 'text' },
    label: { control: 'text' },
    maxLength: { control: 'number' },
    className: { control: 'text' },
  },
} satisfies Meta<typeof ChatInputView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const EnterSends: Story = {
  play: async ({ canvas, args, userEvent }) => {
    const field = canvas.getByRole('textbox', { name: 'Message' });
    await userEvent.type(field, 'first line{Shift>}{Enter}{/Shift}second line');
    await expect(args.onSend).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSend).toHaveBeenCalledWith('first line\nsecond line');
    await expect(field).toHaveValue('');
  },
};

export const Typing: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.type(canvas.getByRole('textbox'), 'What are your opening hours?');
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeEnabled();
  },
};

export const DisabledUntilActive: Story = {
  args: { disabled: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('textbox')).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
  },
};
