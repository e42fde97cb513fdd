import type { CallQuality } from './quality';
import type { CallStats } from '../../core/index';
import { cx } from '../format';

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

const WORDS: Record<ConnectionQualityLevel, string> = {
  excellent: 'excellent',
  good: 'good',
  poor: 'poor',
  lost: 'reconnecting',
  unknown: 'unknown',
};
const FILLED: Record<ConnectionQualityLevel, number> = { excellent: 3, good: 2, poor: 1, lost: 0, unknown: 0 };

const round = (v: number | null, unit: string) => (v === null ? null : `${Math.round(v)} ${unit}`);

/**
 * Three signal bars, filled by quality (3 excellent, 2 good, 1 poor, 0 reconnecting or unknown), with the numbers
 * (round-trip time, packet loss, jitter) in its accessible name and tooltip. Themable with `--liveai-quality-*`
 * colours. Pure view.
 * @public
 */
export function ConnectionQualityView({ quality, stats, className }: ConnectionQualityViewProps) {
  const numbers = stats
    ? [
        round(stats.rttMs, 'ms round trip'),
        stats.packetLossPct === null ? null : `${stats.packetLossPct.toFixed(1)} % loss`,
        round(stats.jitterMs, 'ms jitter'),
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  const name = `Connection ${WORDS[quality]}${numbers ? ` (${numbers})` : ''}`;
  return (
    <span className={cx('liveai-quality', className)} data-quality={quality} role="img" aria-label={name} title={name}>
      {[1, 2, 3].map((n) => (
        <span key={n} className="liveai-quality__bar" data-on={n <= FILLED[quality] || undefined} />
      ))}
    </span>
  );
}
