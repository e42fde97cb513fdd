import { useContext } from 'react';
import { en } from './en';
import { MessagesContext } from './context';
import { mergeMessages, type Catalogue, type Messages } from './messages';

/** Each catalogue of a context, completed with English once (the same object for every component that reads it). */
const completed = new WeakMap<Catalogue, Messages>();

/** The context's catalogue with what it lacks taken from English (grouped keys key by key). */
export function completeMessages(catalogue: Catalogue): Messages {
  let m = completed.get(catalogue);
  if (!m) completed.set(catalogue, (m = mergeMessages(catalogue, en)));
  return m;
}

/**
 * The catalogue the components below use; English unless a {@link MessagesProvider} says otherwise.
 * @public
 */
export function useMessages(): Messages {
  return completeMessages(useContext(MessagesContext));
}
