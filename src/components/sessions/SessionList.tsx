import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { MAX_PAGINATION_OFFSET, type Pagination, type RoomListItem, type SessionListItem } from '../../core/index';
import { cx, explainError, formatCredits, type ErrorLike } from '../format';
import { useMessages } from '../i18n/use-messages';
import { formatNumber, type Messages } from '../i18n/messages';
import { useSessionList, type UseSessionListOptions, type UseSessionListResult } from '../../react';

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

/**
 * Props of {@link SessionListView} (admin view of the room and session lists).
 * @public
 */
export interface SessionListViewProps {
  kind: 'rooms' | 'sessions';
  onKindChange: (kind: 'rooms' | 'sessions') => void;
  items: readonly SessionListRow[];
  pagination: Pagination | null;
  /** 1-based. */
  page: number;
  onPageChange: (page: number) => void;
  loading?: boolean;
  error?: ErrorLike | null;
  onRefresh?: () => void;
  className?: string;
}

const KINDS = ['rooms', 'sessions'] as const;

/**
 * Rooms / sessions tabs (arrow keys move between them), a table, pagination within the 1000-offset limit. Every
 * label comes from the message catalogue (`rooms`, `sessions`, `pageOf`, `columns`, `sessionStatus`, …); dates and
 * numbers are formatted for its locale. Pure view.
 * @public
 */
export function SessionListView(p: SessionListViewProps) {
  const id = useId();
  const m = useMessages();
  const n = (v: number) => formatNumber(v, m);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const limit = p.pagination?.limit ?? 25;
  const canNext = !!p.pagination?.has_more && p.page * limit < MAX_PAGINATION_OFFSET;
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const next = KINDS[(KINDS.indexOf(p.kind) + 1) % 2]!;
    p.onKindChange(next);
    tabs.current[KINDS.indexOf(next)]?.focus();
  };
  return (
    <div className={cx('liveai-sessions', p.className)} data-loading={p.loading || undefined}>
      <div className="liveai-sessions__head">
        <div className="liveai-tabs" role="tablist" aria-label={m.sessionLists} onKeyDown={onKey}>
          {KINDS.map((k, i) => (
            <button
              key={k}
              ref={(el) => void (tabs.current[i] = el)}
              type="button"
              role="tab"
              id={`${id}-${k}`}
              aria-controls={`${id}-panel`}
              aria-selected={p.kind === k}
              tabIndex={p.kind === k ? 0 : -1}
              className="liveai-tab"
              onClick={() => p.onKindChange(k)}
            >
              {k === 'rooms' ? m.rooms : m.sessions}
            </button>
          ))}
        </div>
        {p.onRefresh && (
          <button type="button" className="liveai-button" onClick={p.onRefresh} disabled={p.loading}>
            {m.refresh}
          </button>
        )}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-${p.kind}`}
        aria-busy={p.loading || undefined}
        className="liveai-sessions__panel"
        tabIndex={0}
      >
        {p.error ? (
          // An admin screen: the technical detail is what helps here.
          <p role="alert">{m.listError(p.error.code ?? 'error', explainError(p.error).detail ?? '')}</p>
        ) : p.items.length ? (
          <SessionTable kind={p.kind} items={p.items} />
        ) : (
          <p className="liveai-sessions__empty">{p.loading ? m.loading : m.listEmpty}</p>
        )}
      </div>
      <nav className="liveai-pager" aria-label={m.pages}>
        <button type="button" className="liveai-button" disabled={p.page <= 1 || p.loading} onClick={() => p.onPageChange(p.page - 1)}>
          {m.previousPage}
        </button>
        <span aria-live="polite">
          {p.pagination ? m.pageOf(n(p.page), n(Math.max(1, p.pagination.total_pages)), n(p.pagination.total)) : m.pageOnly(n(p.page))}
        </span>
        <button type="button" className="liveai-button" disabled={!canNext || p.loading} onClick={() => p.onPageChange(p.page + 1)}>
          {m.nextPage}
        </button>
      </nav>
    </div>
  );
}

/**
 * Props of {@link SessionList}.
 * @public
 */
export interface SessionListProps extends Omit<UseSessionListOptions, 'kind' | 'page'> {
  /** Tab shown first (default `rooms`). */
  initialKind?: 'rooms' | 'sessions';
  className?: string;
}

/**
 * Admin list of hosted rooms and sessions through the proxy's admin routes
 * (`admin(req)` must allow the caller; a 403 is shown as an error). Switching tabs goes back to page 1.
 * @public
 */
export function SessionList({ initialKind = 'rooms', className, ...options }: SessionListProps) {
  const [kind, setKind] = useState(initialKind);
  const list = useSessionList({ ...options, kind } as UseSessionListOptions & { kind: 'rooms' }) as UseSessionListResult<SessionListRow>;
  return (
    <SessionListView
      className={className}
      kind={kind}
      onKindChange={(k) => {
        setKind(k);
        list.setPage(1);
      }}
      items={list.items}
      pagination={list.pagination}
      page={list.page}
      onPageChange={list.setPage}
      loading={list.loading}
      error={list.error}
      onRefresh={list.refresh}
    />
  );
}
