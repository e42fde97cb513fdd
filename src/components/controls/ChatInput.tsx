import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Icon } from './icons';
import { cx } from '../format';
import { useMessages } from '../i18n/use-messages';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';

/**
 * Props of {@link ChatInputView}.
 * @public
 */
export interface ChatInputViewProps {
  /** Called with the trimmed text. If it returns a promise that rejects, the text is put back. */
  onSend: (text: string) => void | Promise<unknown>;
  /** True while the call is not active: the field and the button are disabled. */
  disabled?: boolean;
  placeholder?: string;
  /** Placeholder while disabled (default "Chat opens in a call": short, so it stays on one line on a phone). */
  disabledPlaceholder?: string;
  /** Accessible name of the field. */
  label?: string;
  /** Characters, default 2000. */
  maxLength?: number;
  className?: string;
}

/**
 * Text chat beside voice (`chat-msg`). Enter sends, Shift+Enter adds a line, IME
 * composition is left alone. Pure view.
 * @public
 */
export function ChatInputView(props: ChatInputViewProps) {
  const m = useMessages();
  const { onSend, disabled = false, label = m.message, maxLength = 2000, className } = props;
  const [text, setText] = useState('');
  const id = useId();
  const send = () => {
    const value = text.trim();
    if (!value || disabled) return;
    setText('');
    const result = onSend(value);
    if (result instanceof Promise) result.catch(() => setText((t) => t || value));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    send();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  return (
    <form className={cx('liveai-chat', className)} onSubmit={onSubmit} data-disabled={disabled || undefined}>
      <label htmlFor={id} className="liveai-visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        className="liveai-chat__field"
        rows={1}
        dir={text ? 'auto' : undefined}
        value={text}
        maxLength={maxLength}
        disabled={disabled}
        placeholder={disabled ? (props.disabledPlaceholder ?? m.chatOpensInCall) : (props.placeholder ?? m.typeMessage)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button
        type="submit"
        className="liveai-button liveai-button--icon liveai-button--primary"
        disabled={disabled || !text.trim()}
        aria-label={m.send}
      >
        <Icon name="send" />
      </button>
    </form>
  );
}

/**
 * Props of {@link ChatInput}.
 * @public
 */
export type ChatInputProps = Omit<ChatInputViewProps, 'onSend' | 'disabled'> & {
  /** Called after a message was sent (e.g. for analytics). */
  onSent?: (text: string) => void;
};

/**
 * Chat with the avatar (`chat-msg`); enabled only while the session is active.
 * @public
 */
export function ChatInput({ onSent, ...props }: ChatInputProps) {
  const session = useAvatarSession();
  const active = useSessionState((s) => s.phase === 'active'); // re-renders only when that flips
  const send = (text: string) => session.sendChat(text).then(() => onSent?.(text));
  return <ChatInputView {...props} onSend={send} disabled={!active} />;
}
