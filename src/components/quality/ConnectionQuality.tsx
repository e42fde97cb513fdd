import type { CallStats } from '../../core/index';
import { cx } from '../format';
import { useMessages } from '../i18n/use-messages';
import { describeConnection } from '../i18n/en';
import { useCallStats } from '../../react';
import { useSessionState } from '../../react/session';

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

/**
 * What {@link ConnectionQualityView} shows: a `CallQuality`, or `lost` while the room is reconnecting.
 * @public
 */
export type ConnectionQualityLevel = CallQuality | 'lost';

/**
 * Props of {@link ConnectionQualityView}.
 * @public
 */
export interface ConnectionQualityViewProps {
  quality: ConnectionQualityLevel;
  /** The sample behind it: its numbers are given in the tooltip and to screen readers. */
  stats?: CallStats | null;
  className?: string;
}

const FILLED: Record<ConnectionQualityLevel, number> = { excellent: 3, good: 2, poor: 1, lost: 0, unknown: 0 };

/**
 * Three signal bars, filled by quality (3 excellent, 2 good, 1 poor, 0 reconnecting or unknown), with the numbers
 * (round-trip time in ms, packet loss in %, jitter in ms, formatted for the catalogue's locale) in its accessible name
 * and tooltip, e.g. "Connection good (310 ms round trip, 2.5 % loss, 12 ms jitter)" (catalogue keys `connectionQuality`,
 * `quality`, `roundTrip`, `packetLoss`, `jitter`). Themable with `--liveai-quality-*`
 * colours. Pure view.
 * @public
 */
export function ConnectionQualityView({ quality, stats, className }: ConnectionQualityViewProps) {
  const name = describeConnection(quality, stats ?? null, useMessages());
  return (
    <span className={cx('liveai-quality', className)} data-quality={quality} role="img" aria-label={name} title={name}>
      {[1, 2, 3].map((n) => (
        <span key={n} className="liveai-quality__bar" data-on={n <= FILLED[quality] || undefined} />
      ))}
    </span>
  );
}

/**
 * The nearest session's connection quality as three bars, from `useCallStats()` (sampled every 2 s while it is
 * shown). `reconnecting` while the room is reconnecting; renders nothing outside a room.
 * @public
 */
export function ConnectionQuality({ className }: { className?: string }) {
  const connection = useSessionState((s) => s.media.connection);
  const stats = useCallStats();
  if (connection !== 'connected' && connection !== 'reconnecting') return null;
  return (
    <ConnectionQualityView quality={connection === 'reconnecting' ? 'lost' : callQuality(stats)} stats={stats} className={className} />
  );
}
