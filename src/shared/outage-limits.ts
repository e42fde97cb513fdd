/**
 * How long a lost media connection is retried before the session is given up, ms (60 s from the first sign of
 * trouble). The browser's rtc-a adapter and the emulator's media avatar both use it.
 */
export const OUTAGE_DEADLINE_MS = 60_000;

/** Pacing of the rejoin attempts during an outage: 0.5 s, doubling, capped at 5 s (before jitter). */
export const REJOIN_BASE_MS = 500;
export const REJOIN_MAX_MS = 5_000;
export const REJOIN_BACKOFF = { baseMs: REJOIN_BASE_MS, maxMs: REJOIN_MAX_MS } as const;
