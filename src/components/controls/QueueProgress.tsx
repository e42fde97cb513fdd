import { useQueueClock, useSession } from '../../react';
import { QueueProgressView } from './QueueProgressView';
import { isWaiting } from '../../core/internal';

/**
 * Cold-start progress of the nearest session; renders nothing unless it is being created, queued or connecting.
 * @public
 */
export function QueueProgress({ className }: { className?: string }) {
  const { phase } = useSession();
  const clock = useQueueClock();
  if (!isWaiting(phase)) return null;
  return <QueueProgressView phase={phase} {...clock} className={className} />;
}
