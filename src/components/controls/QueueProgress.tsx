import { useSession } from '../../react';
import { useCallClock } from '../stage/clock';
import { QueueProgressView } from './QueueProgressView';
import { isWaiting } from '../../core/internal';

/**
 * Cold-start progress of the nearest session, counted from the click on Start; renders nothing unless it is being
 * created, queued or connecting.
 * @public
 */
export function QueueProgress({ className }: { className?: string }) {
  const { phase } = useSession();
  const clock = useCallClock();
  if (!isWaiting(phase)) return null;
  return <QueueProgressView phase={phase} {...clock} className={className} />;
}
