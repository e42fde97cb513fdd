// Browser-side measurements of a call (the session option `onMetric`), derived from the session's store and the
// avatar's video track. Nothing is sent anywhere: each measurement goes to the app's callback, and only when the app
// gave one.
import type { StoreApi } from 'zustand/vanilla';
import type { SessionState } from './types';

/**
 * One measurement of a call in this browser, as the session option `onMetric` receives it. Times are in
 * milliseconds (the `…Ms` fields), measured with the page's clock.
 * - `cold_start`: from `start()` (the session being created) until the call is `active`: `durationMs`.
 * - `first_frame`: from `start()` until the avatar's video first carries frames (its track is there and not
 *   muted): `sinceStartMs`. Once per `start()`.
 * - `reconnect`: the room connection was lost and came back (`recovered: true`, `durationMs` from `reconnecting` to
 *   `connected`), or was given up (`recovered: false`, until `disconnected`). `count` is the number of reconnects
 *   since `start()`, this one included.
 * - `freeze`: the avatar's video stalled during an active call (the browser marked its track muted: no frames
 *   arrived) and then flowed again after `durationMs`. A stall that lasts until the call ends or the track is replaced
 *   is not reported.
 * @beta
 */
export type SessionMetric =
  | { name: 'cold_start'; durationMs: number }
  | { name: 'first_frame'; sinceStartMs: number }
  | { name: 'reconnect'; durationMs: number; recovered: boolean; count: number }
  | { name: 'freeze'; durationMs: number };

/** The name of a {@link SessionMetric}: `cold_start`, `first_frame`, `reconnect` or `freeze`. @beta */
export type SessionMetricName = SessionMetric['name'];

/**
 * Watches `store` and reports each measurement to `onMetric`. Returns the function that stops watching (and lets go
 * of the video track's listeners).
 * @param now the clock, ms (default `Date.now`, the clock of the store's `startedAt` and `activeAt`).
 */
export function watchMetrics(
  store: StoreApi<SessionState>,
  onMetric: (metric: SessionMetric) => void,
  now: () => number = Date.now,
): () => void {
  /** The `start()` being measured (its `startedAt`), and what was already reported for it. */
  let startedAt: number | null = null;
  let coldStart = false;
  let firstFrame = false;
  let reconnects = 0;
  let reconnectingSince: number | null = null;
  let connection = store.getState().media.connection;
  /** The video track watched for stalls, the end of its listeners, and when its current stall began. */
  let watched: MediaStreamTrack | null = null;
  let unwatch = () => {};
  let stalledSince: number | null = null;

  const watchTrack = (track: MediaStreamTrack | null) => {
    if (track === watched) return;
    unwatch();
    watched = track;
    stalledSince = null;
    if (!track) return (unwatch = () => {});
    const onMute = () => {
      const st = store.getState();
      if (st.phase === 'active' && st.media.connection === 'connected') stalledSince = now();
    };
    const onUnmute = () => {
      if (stalledSince !== null) onMetric({ name: 'freeze', durationMs: now() - stalledSince });
      stalledSince = null;
      check(store.getState()); // a track that was muted from the start carries its first frame now
    };
    track.addEventListener('mute', onMute);
    track.addEventListener('unmute', onUnmute);
    unwatch = () => {
      track.removeEventListener('mute', onMute);
      track.removeEventListener('unmute', onUnmute);
    };
  };

  const check = (st: SessionState) => {
    if (st.startedAt !== startedAt) {
      startedAt = st.startedAt;
      coldStart = firstFrame = false;
      reconnects = 0;
      reconnectingSince = null;
    }
    if (startedAt === null) return;
    if (!coldStart && st.activeAt !== null) {
      coldStart = true;
      onMetric({ name: 'cold_start', durationMs: st.activeAt - startedAt });
    }
    const video = st.media.videoTrack;
    if (!firstFrame && video && !video.muted) {
      firstFrame = true;
      onMetric({ name: 'first_frame', sinceStartMs: now() - startedAt });
    }
    const next = st.media.connection;
    if (next !== connection) {
      if (next === 'reconnecting') reconnectingSince = now();
      else if (reconnectingSince !== null && (next === 'connected' || next === 'disconnected')) {
        reconnects++;
        onMetric({ name: 'reconnect', durationMs: now() - reconnectingSince, recovered: next === 'connected', count: reconnects });
        reconnectingSince = null;
      }
      connection = next;
    }
  };

  const unsubscribe = store.subscribe((st) => {
    watchTrack(st.media.videoTrack);
    check(st);
  });
  return () => {
    unsubscribe();
    unwatch();
  };
}
