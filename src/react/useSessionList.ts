import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveAiError, Pagination, RoomListItem, SessionListItem } from '../core/index';
import { loadProxyClient } from '../core/internal';

/**
 * Options of `useSessionList`.
 * @public
 */
export interface UseSessionListOptions {
  /** Where `createAvatarProxy` is mounted. */
  proxyUrl: string;
  kind: 'rooms' | 'sessions';
  /** First page (default 1) and page size (default 25, 1–100). */
  page?: number;
  limit?: number;
  fetch?: typeof fetch;
  /** Headers your `admin(req)` check needs (e.g. an auth header). */
  headers?: Record<string, string>;
}
/**
 * What `useSessionList` returns: one page of `items`, the pagination, loading and error, and the page
 * controls. `error` is a `LiveAiError` with the proxy's code and status.
 * @public
 */
export interface UseSessionListResult<T> {
  items: T[];
  pagination: Pagination | null;
  loading: boolean;
  error: LiveAiError | null;
  page: number;
  setPage: (page: number) => void;
  refresh: () => void;
}

/**
 * Lists rooms or sessions through the proxy's admin routes, one page at a time. Through liveai-kit's proxy each
 * item's `session_id` is an opaque handle (never the service's own id), sealed afresh on every read.
 * Errors (e.g. 403 for non-admins, 400 for a page past the 1000 offset) land in `error`.
 * @public
 */
export function useSessionList(options: UseSessionListOptions & { kind: 'rooms' }): UseSessionListResult<RoomListItem>;
/**
 * Lists sessions through the proxy's admin routes (see the first overload).
 * @public
 */
export function useSessionList(options: UseSessionListOptions & { kind: 'sessions' }): UseSessionListResult<SessionListItem>;
/**
 * Lists rooms or sessions through the proxy's admin routes, as `options.kind` says (see the first overload).
 * @public
 */
export function useSessionList(options: UseSessionListOptions): UseSessionListResult<RoomListItem | SessionListItem> {
  const { proxyUrl, kind, limit, fetch: f, headers } = options;
  const [page, setPage] = useState(options.page ?? 1);
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<Omit<UseSessionListResult<RoomListItem | SessionListItem>, 'page' | 'setPage' | 'refresh'>>({
    items: [],
    pagination: null,
    loading: true,
    error: null,
  });
  const headersKey = JSON.stringify(headers ?? {});
  const fetchRef = useRef(f);
  fetchRef.current = f;
  // The proxy client loads with the first list (it is not part of a page's first load).
  const client = useMemo(
    () =>
      loadProxyClient().then((m) =>
        m.createProxyClient({ proxyUrl, headers: JSON.parse(headersKey), fetch: (...a) => (fetchRef.current ?? fetch)(...a) }),
      ),
    [proxyUrl, headersKey],
  );
  useEffect(() => {
    const ac = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    const q = { page, limit };
    type Page = { items: (RoomListItem | SessionListItem)[]; pagination: Pagination };
    const p = client.then((c): Promise<Page> =>
      kind === 'rooms'
        ? c.listRooms(q, { signal: ac.signal }).then((r) => ({ items: r.rooms, pagination: r.pagination }))
        : c.listSessions(q, { signal: ac.signal }).then((r) => ({ items: r.sessions, pagination: r.pagination })),
    );
    p.then(
      (r) => !ac.signal.aborted && setState({ ...r, loading: false, error: null }),
      (error: LiveAiError) => !ac.signal.aborted && setState((s) => ({ ...s, loading: false, error })),
    );
    return () => ac.abort();
  }, [client, kind, page, limit, tick]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, page, setPage, refresh };
}
