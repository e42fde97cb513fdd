import type { RoomListItem, SessionListItem } from '../../core/index';
import { formatCredits } from '../format';

/**
 * One row of either list (a hosted room or a session).
 * @public
 */
export type SessionListRow = RoomListItem | SessionListItem;

const STATUS_TEXT: Record<string, string> = {
  QUEUED: 'Queued',
  ACTIVE: 'Active',
  COMPLETED: 'Completed',
  TIMED_OUT: 'Timed out',
  FAILED: 'Failed',
};

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/**
 * The visible part of a session id. Through liveai-kit's proxy the ids are handles (~170 characters that all begin
 * alike), so a long id shows its last characters, which differ from row to row; the whole id is its tooltip.
 */
const shortId = (id: string) => (id.length > 18 ? `…${id.slice(-12)}` : id);

/** Table of rooms or sessions with status badges and credits used. */
export function SessionTable({ kind, items }: { kind: 'rooms' | 'sessions'; items: readonly SessionListRow[] }) {
  return (
    <table className="liveai-table">
      <caption className="liveai-visually-hidden">{kind === 'rooms' ? 'Hosted rooms' : 'Sessions'}</caption>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">{kind === 'rooms' ? 'Agent' : 'Provider'}</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
          <th scope="col">Credits</th>
        </tr>
      </thead>
      <tbody>
        {items.map((row) => (
          <tr key={row.session_id}>
            <td className="liveai-table__id" title={row.session_id}>
              {shortId(row.session_id)}
            </td>
            <td>{'agent_id' in row ? row.agent_id : (row.provider ?? '—')}</td>
            <td>
              <time dateTime={row.created_at}>{when(row.created_at)}</time>
            </td>
            <td>
              <span className="liveai-badge" data-status={row.session_status}>
                {STATUS_TEXT[row.session_status] ?? row.session_status}
              </span>
            </td>
            <td className="liveai-table__num">{row.credits_used == null ? '—' : formatCredits(row.credits_used)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
