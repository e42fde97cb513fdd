import { isRecoverable } from '../../shared/livekit-reasons';
import { OUTAGE_DEADLINE_MS } from '../../shared/outage';

export { OutageClock } from '../../shared/outage';

/** How long the avatar keeps trying to rejoin after losing the room, ms (docs/emulator.md "LiveKit outages"). */
export const DEFAULT_REJOIN_DEADLINE_MS = OUTAGE_DEADLINE_MS;

/**
 * Whether the avatar should rejoin after a LiveKit `DisconnectReason` (same numbers as livekit-client): yes for a
 * server shutdown/restart, a broken signal or media connection, or the SDK giving up; no for our own leave, a
 * duplicate identity, being removed, or the room deleted/closed.
 */
export const shouldRejoin = (reason: number | undefined): boolean => isRecoverable(reason);
