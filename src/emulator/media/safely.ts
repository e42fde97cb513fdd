/** Runs a caller's handler: a throwing handler must never break the room's event loop. */
export function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    /* a caller's handler must never break the room's event loop */
  }
}

/** First line of an error's message (never includes the token: rtc-node errors do not echo it). */
export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}
