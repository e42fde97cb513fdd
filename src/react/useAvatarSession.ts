import { useContext } from 'react';
import type { AvatarSession } from '../core/index';
import { AvatarSessionContext } from './context';

/**
 * The session of the nearest `AvatarSessionProvider`.
 * @throws Error with a clear message when used outside a provider.
 */
export function useAvatarSession(): AvatarSession {
  const session = useContext(AvatarSessionContext);
  if (!session) {
    throw new Error('useAvatarSession: no <AvatarSessionProvider> around this component');
  }
  return session;
}
