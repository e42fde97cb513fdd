import { pino, type Logger } from 'pino';

/**
 * A pino logger for the proxies the tests make: every line goes to `lines` (parsed), none to stdout or stderr, so
 * the test run prints the reporter's lines only. Without a logger the proxy writes its warnings to stderr.
 */
export function quietLogger(level: pino.LevelWithSilent = 'warn'): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return Object.assign(logger, { lines });
}
