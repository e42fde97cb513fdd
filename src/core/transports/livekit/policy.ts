/**
 * The LiveKit adapter's reconnect policy on its own (no livekit-client, no adapter code), so the `liveai-kit/livekit`
 * entry can export its defaults without loading the adapter with the page.
 */
// Plain numbers (no property reads), so bundlers drop the object from pages that do not import it.
import { OUTAGE_DEADLINE_MS, REJOIN_BASE_MS, REJOIN_MAX_MS } from '../../../shared/outage-limits';

/**
 * Reconnect policy of the LiveKit adapter. All values in ms.
 * @public
 */
export interface ReconnectPolicy {
  /** Overall deadline from the first sign of trouble; after it the adapter reports `transport_failed` (default 60 000). */
  deadlineMs: number;
  /** First retry delay; doubles per attempt (default 500). */
  baseDelayMs: number;
  /** Cap of one retry delay (default 5 000). */
  maxDelayMs: number;
  /**
   * How long a queued chat message waits for the avatar participant once the room is connected (default 15 000); then
   * it is sent anyway.
   */
  agentWaitMs: number;
}

/**
 * The LiveKit adapter's reconnect defaults: a 60 000 ms deadline, retries from 500 ms doubling up to 5 000 ms,
 * and 15 000 ms of waiting for the avatar before a queued chat message is sent anyway.
 * @public
 */
export const DEFAULT_RECONNECT_POLICY: ReconnectPolicy = {
  deadlineMs: OUTAGE_DEADLINE_MS,
  baseDelayMs: REJOIN_BASE_MS,
  maxDelayMs: REJOIN_MAX_MS,
  agentWaitMs: 15_000,
};
