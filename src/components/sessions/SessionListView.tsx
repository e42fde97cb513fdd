import { useId, useRef, type KeyboardEvent } from 'react';
import { MAX_PAGINATION_OFFSET, type Pagination } from '../../core/index';
import { SessionTable, type SessionListRow } from './SessionTable';
import { cx, explainError, type ErrorLike } from '../format';
import { useMessages } from '../i18n/context';
import { formatNumber } from '../i18n/messages';

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
