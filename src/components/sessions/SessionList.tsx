import { useState } from 'react';
import { useSessionList, type UseSessionListOptions, type UseSessionListResult } from '../../react';
import { SessionListView, type SessionListRow } from './SessionListView';

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
