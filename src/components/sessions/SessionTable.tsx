import type { RoomListItem, SessionListItem } from '../../core/index';
import { formatCredits } from '../format';
import { useMessages } from '../i18n/context';
import type { Messages } from '../i18n/messages';

/**
 * One row of either list (a hosted room or a session).
 * @public
 */
export type SessionListRow = RoomListItem | SessionListItem;

/** A date and time in the catalogue's locale (the visitor's time zone); an unreadable one as it came. */
const when = (iso: string, m: Messages) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(m.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
};

/**
 * The visible part of a session id. Through liveai-kit's proxy the ids are handles (~170 characters that all begin
 * alike), so a long id shows its last characters, which differ from row to row; the whole id is its tooltip.
 */
const shortId = (id: string) => (id.length > 18 ? `…${id.slice(-12)}` : id);

/** Table of rooms or sessions with status badges and credits used. */
export function SessionTable({ kind, items }: { kind: 'rooms' | 'sessions'; items: readonly SessionListRow[] }) {
  const m = useMessages();
  const statuses = m.sessionStatus as Partial<Record<string, string>>;
  return (
    <table className="liveai-table">
      <caption className="liveai-visually-hidden">{kind === 'rooms' ? m.hostedRooms : m.sessions}</caption>
      <thead>
        <tr>
          <th scope="col">{m.columns.session}</th>
          <th scope="col">{kind === 'rooms' ? m.columns.agent : m.columns.provider}</th>
          <th scope="col">{m.columns.created}</th>
          <th scope="col">{m.columns.status}</th>
          <th scope="col">{m.columns.credits}</th>
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
              <time dateTime={row.created_at}>{when(row.created_at, m)}</time>
            </td>
            <td>
              <span className="liveai-badge" data-status={row.session_status}>
                {statuses[row.session_status] ?? row.session_status}
              </span>
            </td>
            <td className="liveai-table__num">{row.credits_used == null ? '—' : formatCredits(row.credits_used, m)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
