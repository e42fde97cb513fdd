import { useId, useRef, type KeyboardEvent } from 'react';
import { MAX_PAGINATION_OFFSET, type Pagination } from '../../core/index';
import { SessionTable, type SessionListRow } from './SessionTable';
import { cx, explainError, type ErrorLike } from '../format';

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
 * Rooms / sessions tabs (arrow keys move between them), a table, pagination within the 1000-offset limit. Pure view.
 * @public
 */
export function SessionListView(p: SessionListViewProps) {
  const id = useId();
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
        <div className="liveai-tabs" role="tablist" aria-label="Session lists" onKeyDown={onKey}>
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
              {k === 'rooms' ? 'Rooms' : 'Sessions'}
            </button>
          ))}
        </div>
        {p.onRefresh && (
          <button type="button" className="liveai-button" onClick={p.onRefresh} disabled={p.loading}>
            Refresh
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
          <p role="alert">{`Could not load the list (${p.error.code ?? 'error'}): ${explainError(p.error).detail ?? ''}`}</p>
        ) : p.items.length ? (
          <SessionTable kind={p.kind} items={p.items} />
        ) : (
          <p className="liveai-sessions__empty">{p.loading ? 'Loading…' : 'Nothing here yet.'}</p>
        )}
      </div>
      <nav className="liveai-pager" aria-label="Pages">
        <button type="button" className="liveai-button" disabled={p.page <= 1 || p.loading} onClick={() => p.onPageChange(p.page - 1)}>
          Previous
        </button>
        <span aria-live="polite">
          {p.pagination ? `Page ${p.page} of ${Math.max(1, p.pagination.total_pages)} · ${p.pagination.total} total` : `Page ${p.page}`}
        </span>
        <button type="button" className="liveai-button" disabled={!canNext || p.loading} onClick={() => p.onPageChange(p.page + 1)}>
          Next
        </button>
      </nav>
    </div>
  );
}
