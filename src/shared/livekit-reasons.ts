/**
 * LiveKit disconnect reasons and which of them are worth rejoining after. Free of any LiveKit SDK, so the
 * browser adapter (livekit-client) and the emulator's avatar (@livekit/rtc-node) share one rule. Reasons are
 * LiveKit's `DisconnectReason` protocol numbers (stable on the wire).
 */

/** LiveKit `DisconnectReason` values reasoned about here (protocol numbers). */
export const LK_REASON = {
  UNKNOWN_REASON: 0,
  CLIENT_INITIATED: 1,
  DUPLICATE_IDENTITY: 2,
  SERVER_SHUTDOWN: 3,
  PARTICIPANT_REMOVED: 4,
  ROOM_DELETED: 5,
  STATE_MISMATCH: 6,
  JOIN_FAILURE: 7,
  MIGRATION: 8,
  SIGNAL_CLOSE: 9,
  ROOM_CLOSED: 10,
  CONNECTION_TIMEOUT: 14,
  MEDIA_FAILURE: 15,
} as const;

/**
 * Reasons after which the same URL and token can join again: the server went away or restarted
 * (SERVER_SHUTDOWN, MIGRATION), the signal or media connection broke (SIGNAL_CLOSE, CONNECTION_TIMEOUT,
 * MEDIA_FAILURE, STATE_MISMATCH), the SDK's own reconnect gave up (JOIN_FAILURE, UNKNOWN_REASON, or no reason
 * at all). Everything else is final: our own leave, another tab with our identity, being removed, the room
 * deleted or closed by the service (the session is over).
 */
const RECOVERABLE = new Set<number>([
  LK_REASON.UNKNOWN_REASON,
  LK_REASON.SERVER_SHUTDOWN,
  LK_REASON.STATE_MISMATCH,
  LK_REASON.JOIN_FAILURE,
  LK_REASON.MIGRATION,
  LK_REASON.SIGNAL_CLOSE,
  LK_REASON.CONNECTION_TIMEOUT,
  LK_REASON.MEDIA_FAILURE,
]);

/** Whether a room lost for `reason` (undefined: the SDK gave none) may be rejoined with the same URL and token. */
export const isRecoverable = (reason: number | undefined): boolean => reason === undefined || RECOVERABLE.has(reason);

/** Name of a LiveKit disconnect reason, for error details (`SERVER_SHUTDOWN`, `unknown`). */
export function reasonName(reason: number | undefined): string {
  if (reason === undefined) return 'unknown';
  const entry = Object.entries(LK_REASON).find(([, v]) => v === reason);
  return entry ? entry[0] : String(reason);
}
