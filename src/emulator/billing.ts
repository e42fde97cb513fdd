import type { SessionRecord } from './store';

/** Rounds credits to 2 decimals. */
export const round2 = (credits: number): number => Math.round(credits * 100) / 100;

/**
 * Credits for the ACTIVE time of `rec` up to `now` (epoch ms): minutes × `creditsPerMinute`, pro rata,
 * rounded to 2 decimals. 0 when the session never became ACTIVE.
 */
export function accruedCredits(rec: SessionRecord, creditsPerMinute: number, now = Date.now()): number {
  if (rec.activeSince === null) return 0;
  const end = rec.endedAt ?? now;
  return round2((Math.max(0, end - rec.activeSince) / 60_000) * creditsPerMinute);
}

/**
 * `credits_used` of a list item: null while QUEUED and for sessions that ended without a charge
 * (FAILED, TIMED_OUT), the running total while ACTIVE, the cost once COMPLETED.
 */
export function creditsUsed(rec: SessionRecord, creditsPerMinute: number): number | null {
  if (rec.status === 'COMPLETED') return rec.cost ?? 0;
  if (rec.status === 'ACTIVE') return accruedCredits(rec, creditsPerMinute);
  return null;
}
