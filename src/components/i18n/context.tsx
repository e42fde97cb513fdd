import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { enFirst, mergeMessages, prepareFormatters, type Catalogue, type FirstMessages, type MessagesOverride } from './messages';

/**
 * The catalogue of the components below: English's first part unless a {@link MessagesProvider} says otherwise. What
 * it lacks (the rest of English) is filled in by `useMessages`, which loads with the parts that need it.
 */
export const MessagesContext = createContext<Catalogue>(enFirst);

/**
 * The strings a component of the page's first download reads: only the catalogue's first part, so none of them waits
 * for the rest of English to load.
 */
export function useFirstMessages(): FirstMessages {
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
  const outer = useContext(MessagesContext);
  const value = useMemo(() => mergeMessages(messages, outer), [messages, outer]);
  // The number formats of the call's labels are made while the page is idle, not on the Start click.
  useEffect(() => prepareFormatters(value.locale), [value.locale]);
  return <MessagesContext.Provider value={value}>{children}</MessagesContext.Provider>;
}
