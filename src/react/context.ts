import { createContext } from 'react';
import type { AvatarSession } from '../core/index';

/** The session of the nearest `AvatarSessionProvider` (null outside one). */
export const AvatarSessionContext = createContext<AvatarSession | null>(null);
AvatarSessionContext.displayName = 'AvatarSessionContext';
