import type { CallStats } from '../../core/index';

/**
 * A call's quality in one word: `unknown` without stats; `poor` at 5 % packet loss or more, a round-trip time of
 * 400 ms or more, or 50 ms of jitter or more; `good` at 1 %, 200 ms or 20 ms; else `excellent`.
 * @public
 */
export type CallQuality = 'excellent' | 'good' | 'poor' | 'unknown';

/**
 * The quality of a `CallStats` sample (see `CallQuality` for the thresholds).
 * @public
 */
export function callQuality(stats: CallStats | null): CallQuality {
  if (!stats || (stats.packetLossPct === null && stats.rttMs === null && stats.jitterMs === null)) return 'unknown';
  const over = (loss: number, rtt: number, jitter: number) =>
    (stats.packetLossPct ?? 0) >= loss || (stats.rttMs ?? 0) >= rtt || (stats.jitterMs ?? 0) >= jitter;
  return over(5, 400, 50) ? 'poor' : over(1, 200, 20) ? 'good' : 'excellent';
}
