import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { ChatInputView, type ChatInputViewProps } from './ChatInputView';

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
