import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { en, prepareFormatters, resolveMessages, type Messages, type MessagesOverride } from './messages';

const MessagesContext = createContext<Messages>(en);

/**
 * The catalogue the components below use; English unless a {@link MessagesProvider} says otherwise.
 * @public
 */
export function useMessages(): Messages {
  return useContext(MessagesContext);
}

/**
 * Props of {@link MessagesProvider}.
 * @public
 */
export interface MessagesProviderProps {
  /** A translation (e.g. `es` from `liveai-kit/messages`) or a partial override of the one above (English at the top). */
  messages?: MessagesOverride | null | undefined;
  children?: ReactNode;
}

/**
 * Sets the language of every component inside it: `<MessagesProvider messages={es}>`, or override single strings with
 * `messages={{ startCall: 'Call Ava' }}`. Nested providers override the outer one key by key.
 * @public
 */
export function MessagesProvider({ messages, children }: MessagesProviderProps) {
  const outer = useMessages();
  const value = useMemo(() => resolveMessages(messages, outer), [messages, outer]);
  // The number formats of the call's labels are made while the page is idle, not on the Start click.
  useEffect(() => prepareFormatters(value.locale), [value.locale]);
  return <MessagesContext.Provider value={value}>{children}</MessagesContext.Provider>;
}
