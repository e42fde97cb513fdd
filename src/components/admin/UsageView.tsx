import { useEffect, useState } from 'react';
import { cx, explainError, formatCredits, type ErrorLike } from '../format';
import { useMessages } from '../i18n/use-messages';
import { formatNumber } from '../i18n/messages';

/**
 * Sessions, credits and seconds of one agent or client key on one day.
 * @public
 */
export interface UsageTotals {
  sessions: number;
  credits: number;
  seconds: number;
}

/**
 * One UTC day of the proxy's spend ledger, as `GET /usage` answers it.
 * @public
 */
export interface UsageDay extends UsageTotals {
  /** `2026-11-28` (UTC). */
  day: string;
  agents: Record<string, UsageTotals>;
  clients: Record<string, UsageTotals>;
  /** Sessions per end reason. */
  reasons: Record<string, number>;
}

/**
 * One ended session, as `GET /usage` answers it (newest first).
 * @public
 */
export interface UsageEnded {
  started_at: string;
  ended_at: string;
  agent: string;
  client: string;
  /** `user`, `max_duration`, `orphaned`, `service_ended`, `service_failed`, `service_timed_out`. */
  reason: string;
  /** Credits the service charged; null when it reported none. */
  credits: number | null;
  seconds: number;
}

/**
 * The answer of the proxy's admin route `GET /usage`: days oldest first, and the latest ended sessions.
 * @public
 */
export interface UsageData {
  from: string;
  to: string;
  days: UsageDay[];
  recent: UsageEnded[];
}

/**
 * Words of the usage view (English by default; give your own to translate it).
 * @public
 */
export interface UsageLabels {
  title: string;
  perDay: string;
  byAgent: string;
  byClient: string;
  ended: string;
  agent: string;
  client: string;
  sessions: string;
  credits: string;
  time: string;
  reason: string;
  endedAt: string;
  refresh: string;
  loading: string;
  empty: string;
  /** Names of the end reasons; an unknown reason shows as it came. */
  reasons: Record<string, string>;
}

/** English labels of {@link UsageView}. */
const EN: UsageLabels = {
  title: 'Avatar usage',
  perDay: 'Credits per day',
  byAgent: 'By agent',
  byClient: 'By client',
  ended: 'Ended sessions',
  agent: 'Agent',
  client: 'Client',
  sessions: 'Sessions',
  credits: 'Credits',
  time: 'Time',
  reason: 'End reason',
  endedAt: 'Ended',
  refresh: 'Refresh',
  loading: 'Loading…',
  empty: 'No sessions ended in these days.',
  reasons: {
    user: 'Ended by the visitor',
    max_duration: 'Maximum length',
    orphaned: 'Never reached a browser',
    service_ended: 'Ended by the service',
    service_failed: 'Failed',
    service_timed_out: 'Timed out',
  },
};

/**
 * Props of {@link UsageView}.
 * @public
 */
export interface UsageViewProps {
  /** The report, or null before the first answer. */
  data: UsageData | null;
  loading?: boolean;
  error?: ErrorLike | null;
  onRefresh?: () => void;
  /** Words to show instead of the English ones (any subset). */
  labels?: Partial<UsageLabels>;
  className?: string;
}

/** `1:05:09`, `4:09` from seconds. */
const duration = (s: number) => {
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
};

/** The totals of `pick(day)` over every day, largest credits first. */
function sumBy(days: readonly UsageDay[], pick: (d: UsageDay) => Record<string, UsageTotals>): [string, UsageTotals][] {
  const all = new Map<string, UsageTotals>();
  for (const d of days) {
    for (const [k, t] of Object.entries(pick(d))) {
      const a = all.get(k) ?? { sessions: 0, credits: 0, seconds: 0 };
      all.set(k, { sessions: a.sessions + t.sessions, credits: a.credits + t.credits, seconds: a.seconds + t.seconds });
    }
  }
  return [...all].sort((x, y) => y[1].credits - x[1].credits || y[1].sessions - x[1].sessions);
}

/**
 * What the avatars cost, for an admin page: credits per day (a bar chart, each bar labelled), totals by agent and
 * by client key, and the latest ended sessions with why they ended. Reads the proxy's `GET /usage` answer
 * ({@link UsageData}); the proxy answers it only where its `admin` callback admits the request. Pure view.
 * @public
 */
export function UsageView(p: UsageViewProps) {
  const m = useMessages();
  const l = { ...EN, ...p.labels, reasons: { ...EN.reasons, ...p.labels?.reasons } };
  const n = (v: number) => formatNumber(v, m);
  const credits = (v: number) => formatCredits(v, m);
  const days = p.data?.days ?? [];
  const max = Math.max(0, ...days.map((d) => d.credits));
  const total = days.reduce((a, d) => ({ credits: a.credits + d.credits, sessions: a.sessions + d.sessions }), { credits: 0, sessions: 0 });
  const shortDay = (day: string) => day.slice(5);
  const err = p.error ? explainError(p.error, m) : undefined;
  const totals = (title: string, head: string, rows: [string, UsageTotals][]) => (
    <section className="liveai-usage__card" aria-label={title}>
      <h3>{title}</h3>
      <div className="liveai-usage__scroll" tabIndex={0} role="group" aria-label={title}>
        <table className="liveai-table">
          <thead>
            <tr>
              <th scope="col">{head}</th>
              <th scope="col">{l.sessions}</th>
              <th scope="col">{l.credits}</th>
              <th scope="col">{l.time}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([k, t]) => (
              <tr key={k}>
                <td className="liveai-usage__key" title={k}>
                  {k}
                </td>
                <td className="liveai-table__num">{n(t.sessions)}</td>
                <td className="liveai-table__num">{credits(t.credits)}</td>
                <td className="liveai-table__num">{duration(t.seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
  return (
    <div className={cx('liveai-usage', p.className)} data-loading={p.loading || undefined}>
      <div className="liveai-usage__head">
        <h2>{l.title}</h2>
        {p.data && (
          <p className="liveai-usage__sum">
            {p.data.from} – {p.data.to}: {credits(total.credits)}, {n(total.sessions)} {l.sessions.toLowerCase()}
          </p>
        )}
        {p.onRefresh && (
          <button type="button" className="liveai-button" onClick={p.onRefresh} disabled={p.loading}>
            {l.refresh}
          </button>
        )}
      </div>
      {err && (
        <p role="alert" className="liveai-usage__error">
          {err.title} {err.detail}
        </p>
      )}
      {!p.data && !err && <p>{l.loading}</p>}
      {p.data && (
        <>
          <section className="liveai-usage__card" aria-label={l.perDay}>
            <h3>{l.perDay}</h3>
            <ol className="liveai-usage__chart">
              {days.map((d) => (
                <li
                  key={d.day}
                  className="liveai-usage__bar"
                  title={`${d.day}: ${credits(d.credits)}, ${n(d.sessions)} ${l.sessions.toLowerCase()}`}
                >
                  <span className="liveai-usage__track">
                    <span
                      className="liveai-usage__fill"
                      style={{ blockSize: `${max > 0 ? Math.max(d.credits > 0 ? 2 : 0, (d.credits / max) * 100) : 0}%` }}
                    />
                  </span>
                  <span className="liveai-usage__day">
                    <span className="liveai-visually-hidden">
                      {d.day}: {credits(d.credits)}
                    </span>
                    <span aria-hidden="true">{shortDay(d.day)}</span>
                  </span>
                </li>
              ))}
            </ol>
          </section>
          {total.sessions === 0 ? (
            <p className="liveai-usage__empty">{l.empty}</p>
          ) : (
            <div className="liveai-usage__grid">
              {totals(
                l.byAgent,
                l.agent,
                sumBy(days, (d) => d.agents),
              )}
              {totals(l.byClient, l.client, sumBy(days, (d) => d.clients).slice(0, 20))}
            </div>
          )}
          {p.data.recent.length > 0 && (
            <section className="liveai-usage__card" aria-label={l.ended}>
              <h3>{l.ended}</h3>
              <div className="liveai-usage__scroll" tabIndex={0} role="group" aria-label={l.ended}>
                <table className="liveai-table">
                  <thead>
                    <tr>
                      <th scope="col">{l.endedAt}</th>
                      <th scope="col">{l.agent}</th>
                      <th scope="col">{l.client}</th>
                      <th scope="col">{l.reason}</th>
                      <th scope="col">{l.credits}</th>
                      <th scope="col">{l.time}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.data.recent.map((s, i) => (
                      <tr key={`${s.ended_at}-${i}`}>
                        <td>
                          <time dateTime={s.ended_at}>
                            {new Intl.DateTimeFormat(m.locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(s.ended_at))}
                          </time>
                        </td>
                        <td>{s.agent}</td>
                        <td className="liveai-usage__key" title={s.client}>
                          {s.client}
                        </td>
                        <td>
                          <span className="liveai-badge" data-reason={s.reason}>
                            {l.reasons[s.reason] ?? s.reason}
                          </span>
                        </td>
                        <td className="liveai-table__num">{s.credits === null ? '—' : credits(s.credits)}</td>
                        <td className="liveai-table__num">{duration(s.seconds)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
        </>
      )}
    </div>
  );
}

/**
 * Props of {@link Usage}.
 * @public
 */
export interface UsageProps extends Omit<UsageViewProps, 'data' | 'loading' | 'error' | 'onRefresh'> {
  /** Where the proxy is mounted, e.g. `/api/avatar`: the view reads `{endpoint}/usage`. */
  endpoint: string;
  /** Days to show, ending today (UTC): 1–35 (default 14). */
  days?: number;
  /** Request options of the read (e.g. headers your `admin` callback checks); cookies are sent by default. */
  init?: RequestInit;
}

/**
 * {@link UsageView} connected to the proxy: reads `GET {endpoint}/usage?days=…` (same-origin cookies included) and
 * refreshes on demand. A refusal (403 where `admin` does not admit the request) shows as an error.
 * @public
 */
export function Usage({ endpoint, days = 14, init, ...view }: UsageProps) {
  const [state, setState] = useState<{ data: UsageData | null; loading: boolean; error: ErrorLike | null }>({
    data: null,
    loading: true,
    error: null,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    fetch(`${endpoint.replace(/\/+$/, '')}/usage?days=${days}`, { credentials: 'same-origin', ...init, signal: ctrl.signal })
      .then(async (res) => {
        const body = (await res.json()) as UsageData & { detail?: string };
        if (!res.ok) throw Object.assign(new Error(body.detail ?? `HTTP ${res.status}`), { status: res.status, detail: body.detail });
        setState({ data: body, loading: false, error: null });
      })
      .catch((e: unknown) => {
        if (!ctrl.signal.aborted) setState((s) => ({ ...s, loading: false, error: e as ErrorLike }));
      });
    return () => ctrl.abort();
    // `init` is read once per round: a new object each render must not refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [endpoint, days, round]);
  return <UsageView {...view} {...state} onRefresh={() => setRound((r) => r + 1)} />;
}
