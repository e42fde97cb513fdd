import { isFinalStatus, type SessionStatus } from '../core/index';
import { accruedCredits, round2 } from './billing';
import type { EmulatorContext } from './context';
import { emitEvent, flushEvents } from './event-log';
import type { SessionRecord } from './store';

/** Runs `fn` after `ms` unless the session ends first (the timer is tracked on the record). */
export function later(rec: SessionRecord, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    rec.timers.delete(t);
    fn();
  }, ms);
  rec.timers.add(t);
}

/** Create answers held until their session leaves QUEUED (`answerWhenActive`). */
const leftQueue = new WeakMap<SessionRecord, () => void>();
const settle = (rec: SessionRecord) => {
  leftQueue.get(rec)?.();
  leftQueue.delete(rec);
};

/**
 * Starts the state machine of a new QUEUED record (docs/emulator.md "State machine"): after `queueMs` it goes
 * FAILED / TIMED_OUT when a `nextSessionOutcome` fault was pending, else joins the media room (media on, when the
 * transport has one) or goes ACTIVE directly. Resolves at once, or with `answerWhenActive` once the session has
 * left QUEUED (ACTIVE with the avatar publishing, or ended), so the create call can answer then.
 */
export function startLifecycle(ctx: EmulatorContext, rec: SessionRecord, join: (rec: SessionRecord) => Promise<void>): Promise<void> {
  const held = ctx.options.answerWhenActive ? new Promise<void>((resolve) => leftQueue.set(rec, resolve)) : Promise.resolve();
  const outcome = ctx.faults.nextSessionOutcome;
  ctx.faults.nextSessionOutcome = null;
  later(rec, ctx.options.queueMs, () => {
    if (outcome === 'fail') finish(ctx, rec, 'FAILED', 'injected failure (nextSessionOutcome)');
    else if (outcome === 'timeout') finish(ctx, rec, 'TIMED_OUT', 'injected timeout (nextSessionOutcome)');
    else if (ctx.options.media && rec.join) void join(rec);
    else activate(ctx, rec);
  });
  return held;
}

/** QUEUED → ACTIVE: starts billing, emits `bot_ready`, arms the idle timer. No-op unless QUEUED. */
export function activate(ctx: EmulatorContext, rec: SessionRecord): void {
  if (rec.status !== 'QUEUED') return;
  rec.status = 'ACTIVE';
  rec.activeSince = Date.now();
  emitEvent(ctx, rec, { type: 'bot_ready' });
  touch(ctx, rec);
  settle(rec);
}

/**
 * Activity (a control event, a `chat-msg`, WebSocket audio): restarts the idle clock of an ACTIVE session.
 * When it runs out (`idleTimeoutS`) the session emits `idle_timeout` and ends COMPLETED (billed).
 */
export function touch(ctx: EmulatorContext, rec: SessionRecord): void {
  if (rec.status !== 'ACTIVE') return;
  if (rec.idleTimer) clearTimeout(rec.idleTimer);
  rec.idleTimer = setTimeout(
    () => {
      rec.idleTimer = null;
      if (rec.status !== 'ACTIVE') return;
      emitEvent(ctx, rec, { type: 'idle_timeout' });
      finish(ctx, rec, 'COMPLETED', 'idle_timeout');
    },
    (rec.idleTimeoutS ?? ctx.options.idleTimeoutS) * 1000,
  );
}

/**
 * Ends a session: COMPLETED (charged: ACTIVE time × creditsPerMinute, taken from the owner's balance),
 * TIMED_OUT or FAILED (not charged). Stops timers, closes WebSockets (1000) and the media avatar after
 * pending events are published. Returns false when the session had already ended.
 */
export function finish(
  ctx: EmulatorContext,
  rec: SessionRecord,
  status: Exclude<SessionStatus, 'QUEUED' | 'ACTIVE'>,
  reason: string,
): boolean {
  if (isFinalStatus(rec.status)) return false;
  rec.endedAt = Date.now();
  rec.status = status;
  rec.endReason = reason;
  for (const t of rec.timers) clearTimeout(t);
  rec.timers.clear();
  if (rec.idleTimer) clearTimeout(rec.idleTimer);
  rec.idleTimer = null;
  if (status === 'COMPLETED') {
    // Time the media avatar spent rejoining after a LiveKit outage is not billed (docs/emulator.md "LiveKit outages").
    const outageCredits = ((rec.media?.outageMs?.() ?? 0) / 60_000) * ctx.options.creditsPerMinute;
    rec.cost = round2(Math.max(0, accruedCredits(rec, ctx.options.creditsPerMinute, rec.endedAt) - outageCredits));
    const account = ctx.store.accounts.get(rec.ownerKey);
    if (account) account.credits = Math.round((account.credits - rec.cost) * 100) / 100;
  }
  for (const ws of rec.sockets) ws.close(1000, `session ${status}`);
  rec.sockets.clear();
  ctx.options.logger.info({ session_id: rec.id, status, reason }, 'session ended');
  settle(rec);
  ctx.store.pruneFinished(ctx.options.keepFinishedSessions, ctx.options.keepFinishedMs);
  const media = rec.media;
  rec.media = null;
  if (media) {
    void flushEvents(rec)
      .then(() => media.close())
      .catch((e: unknown) => ctx.options.logger.warn({ session_id: rec.id, err: String(e) }, 'closing the avatar failed'));
  }
  return true;
}
