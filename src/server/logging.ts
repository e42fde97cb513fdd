import type { Logger } from './peer-types';

/** The logging calls the proxy makes (a subset of pino's). */
export interface ProxyLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Paths pino blanks out in every line of the proxy's child logger. The proxy never logs bodies or headers,
 * so this is a second line of defence: API key, authorization, client/room/LiveKit tokens, image bytes.
 * @public
 */
export const REDACT_PATHS = [
  'headers["x-api-key"]',
  'headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'apiKey',
  'apiSecret',
  'client_token',
  'token',
  'rtc_a_token',
  'rtc_b_token',
  'image_base64',
  'image',
  '*.apiKey',
  '*.apiSecret',
  '*.client_token',
  '*.token',
  '*.rtc_a_token',
  '*.rtc_b_token',
  '*.image_base64',
  '*.image',
];

/** The field names of {@link REDACT_PATHS}, blanked at the top level and one level down by the default logger. */
const REDACTED = new Set(REDACT_PATHS.filter((p) => /^[A-Za-z_]+$/.test(p)).concat(['x-api-key', 'authorization']));

function redact(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > 1) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, REDACTED.has(k) ? '[redacted]' : redact(v, depth + 1)]));
}

/**
 * The logger used when no pino `logger` is given: warnings and errors (a misconfiguration, a session the proxy
 * had to end, a service or store failure) as one JSON line each on stderr, redacted like the pino child; no
 * per-request lines.
 */
export function stderrLogger(write: (line: string) => void = stderrWrite): ProxyLog {
  const line = (level: 'warn' | 'error') => (obj: object, msg: string) =>
    write(`${JSON.stringify({ level, time: new Date().toISOString(), component: 'liveai-proxy', ...(redact(obj, 0) as object), msg })}\n`);
  return { info() {}, warn: line('warn'), error: line('error') };
}

/** Writes to stderr; where there is no `process.stderr` (Cloudflare Workers, Vercel Edge), to `console.error`. */
function stderrWrite(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (s: string) => unknown } } }).process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(line);
  else console.error(line.trimEnd());
}

/** The proxy's logger: a redacting child of `logger`, or {@link stderrLogger}. */
export function proxyLogger(logger: Logger | undefined): ProxyLog {
  if (!logger) return stderrLogger();
  return logger.child({ component: 'liveai-proxy' }, { redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming `x-request-id` when it is a sane string (≤ 128 of `A-Za-z0-9._:-`), else a new UUID. */
export function requestIdFrom(incoming: string | string[] | undefined | null): string {
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
}
