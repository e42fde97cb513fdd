import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { AvatarWidgetView, MessagesProvider, en, formatClock, type AvatarWidgetViewProps, type Messages } from '../../src/components';
import { ar, de, es, fr, ja } from '../../src/components/i18n/translations';
import widget from './AvatarWidgetView.stories';

/** The composed widget of the AvatarWidgetView stories, in one language. */
const inLanguage = (messages: Messages) =>
  function Translated(args: AvatarWidgetViewProps) {
    return <MessagesProvider messages={messages}>{widget.render(args)}</MessagesProvider>;
  };

const meta = {
  title: 'Views/Languages',
  component: AvatarWidgetView,
  args: { ...widget.args, variant: 'inline', phase: 'active', remainingMs: 17_000 },
} satisfies Meta<typeof AvatarWidgetView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A story per language: the panel speaks it (lang, dir), End and the countdown are translated. */
const story = (messages: Messages, extra?: Story['play']): Story => ({
  render: inLanguage(messages),
  play: async (ctx) => {
    const root = ctx.canvasElement.querySelector('.liveai-widget')!;
    await expect(root).toHaveAttribute('lang', messages.locale);
    await expect(root).toHaveAttribute('dir', messages.dir);
    await expect(ctx.canvas.getByRole('button', { name: messages.end })).toBeVisible();
    await expect(ctx.canvas.getByRole('timer')).toHaveTextContent(messages.callEndsIn(formatClock(17_000, messages.locale)));
    await extra?.(ctx);
  },
});

export const English: Story = story(en);
export const Spanish: Story = story(es);
export const French: Story = story(fr);
export const German: Story = story(de);
export const Japanese: Story = story(ja);
/** Right to left: the End button sits at the left end of the controls, the microphone at the right. */
export const Arabic: Story = story(ar, async ({ canvas }) => {
  const end = canvas.getByRole('button', { name: ar.end }).getBoundingClientRect();
  const mic = canvas.getByRole('button', { name: ar.microphone }).getBoundingClientRect();
  await expect(end.right).toBeLessThan(mic.left);
});
export const ArabicEnded: Story = { ...story(ar), args: { phase: 'ended', remainingMs: null }, play: undefined };
export const ArabicDark: Story = { ...story(ar, undefined), args: { theme: 'dark' } };
