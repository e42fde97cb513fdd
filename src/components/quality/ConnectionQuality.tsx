import { useCallStats } from '../../react';
import { useSessionState } from '../../react/session';
import { callQuality, ConnectionQualityView } from './ConnectionQualityView';

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
