import { useState, type ReactNode } from 'react';
import { useAgentState, useControl } from '../../react';
import { useMessages } from '../i18n/use-messages';

/**
 * Props of {@link StopSpeakingButton}.
 * @public
 */
export interface StopSpeakingButtonProps {
  /** Content of the button (default: the catalogue's `stopSpeaking`, "Stop talking"). */
  children?: ReactNode;
  /** Class of the button. */
  className?: string;
  /** Called with the error when the interrupt failed (not available in this room, the agent did not answer). */
  onError?: (error: unknown) => void;
}

/**
 * "Stop talking": shown only while the avatar speaks; its click calls `interrupt()`, which stops the avatar's reply
 * (in a LiveKit room with an agent that offers it). Disabled while the request is on its way. Unstyled; the button
 * carries `data-liveai-stop-speaking`.
 * @public
 */
export function StopSpeakingButton({ children, className, onError }: StopSpeakingButtonProps) {
  const { state } = useAgentState();
  const { interrupt } = useControl();
  const m = useMessages();
  const [pending, setPending] = useState(false);
  if (state !== 'speaking') return null;
  return (
    <button
      type="button"
      className={className}
      data-liveai-stop-speaking=""
      disabled={pending}
      onClick={() => {
        setPending(true);
        interrupt()
          .catch((e: unknown) => onError?.(e))
          .finally(() => setPending(false));
      }}
    >
      {children ?? m.stopSpeaking}
    </button>
  );
}
