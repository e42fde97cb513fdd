import type { Logger } from './peer-types';

/** The logging calls the proxy makes (a subset of pino's). */
export interface ProxyLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Paths pino blanks out in every line of the proxy's child logger (a field of that name at the top level, one
 * level down or two levels down). The proxy never logs bodies or headers, so this is a second line of defence:
 * API keys, authorization, secrets, client/room/LiveKit tokens, image bytes. The proxy's logger also blanks,
 * anywhere in a line and at every level, the secrets it was configured with (API key, session secret, LiveKit API
 * secret), JWT-shaped tokens and `Bearer` credentials.
 * @public
 */
export const REDACT_PATHS: string[] = [
  'headers["x-api-key"]',
  'headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  '*["x-api-key"]',
  '*.*["x-api-key"]',
  ...['apiKey', 'apiSecret', 'sessionSecret', 'authorization', 'client_token', 'token', 'rtc_a_token', 'rtc_b_token']
    .concat(['image_base64', 'image'])
    .flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
];

/** Field names blanked wherever they are, compared in lower case. */
const SECRET_KEYS = new Set(
  ['apikey', 'api_key', 'apisecret', 'api_secret', 'sessionsecret', 'secret', 'password', 'authorization', 'x-api-key', 'cookie'].concat([
    'client_token',
    'token',
    'rtc_a_token',
    'rtc_b_token',
    'image_base64',
    'image',
  ]),
);
/** A JWT (client tokens, LiveKit room tokens): three base64url parts, the first a JSON header. */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/** The credential of an `Authorization` header quoted in a text. */
const AUTH_VALUE = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
const CENSOR = '[redacted]';
/** Deepest level of an object the redactor walks; below it, values are replaced whole. */
const MAX_DEPTH = 6;
/** Longest string logged, in characters (cut after redaction, so no secret is cut in two and left half-visible). */
const MAX_STRING_CHARS = 500;

/** Blanks secrets in what the proxy logs: {@link createRedactor}. */
export interface Redactor {
  /** `text` with every known secret, token-shaped value and `Bearer …` credential replaced by `[redacted]`. */
  text(text: string): string;
  /**
   * A copy of `value` with secret fields (by name) blanked and every string passed through {@link Redactor.text},
   * then cut to 500 characters.
   */
  value(value: unknown): unknown;
}

/**
 * Redaction by what a value is, not by its length: the proxy's own secrets (`secrets`: its API key, session secret,
 * LiveKit API secret), JWTs (client and LiveKit tokens), `Bearer`/`Basic` credentials, and fields named like a
 * secret (`authorization`, `x-api-key`, `apiKey`, `token`, …) at any depth.
 */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  // Longest first, so a secret that contains another is blanked whole.
  const known = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  const text = (t: string): string => {
    let out = t;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(CENSOR);
    return out.replace(JWT, CENSOR).replace(AUTH_VALUE, `$1 ${CENSOR}`);
  };
  const value = (v: unknown, depth = 0): unknown => {
    if (typeof v === 'string') return text(v).slice(0, MAX_STRING_CHARS);
    if (typeof v !== 'object' || v === null) return v;
    if (depth >= MAX_DEPTH) return CENSOR;
    if (v instanceof Error) return { name: v.name, message: text(v.message) };
    if (Array.isArray(v)) return v.map((x) => value(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_KEYS.has(k.toLowerCase()) ? CENSOR : value(x, depth + 1)]));
  };
  return { text, value: (v) => value(v) };
}

/** The secrets of a proxy's options, as text: its API key, session secret and LiveKit API secret. */
export function secretsOf(o: {
  upstream?: { apiKey?: string };
  sessionSecret?: string | Uint8Array;
  livekit?: { apiSecret?: string };
}): string[] {
  const out = [o.upstream?.apiKey, o.livekit?.apiSecret];
  const s = o.sessionSecret;
  if (typeof s === 'string') out.push(s);
  else if (s instanceof Uint8Array) {
    // No Buffer: this runs on Cloudflare Workers and Vercel Edge too.
    const base64 = btoa(String.fromCharCode(...s));
    const hex = Array.from(s, (b) => b.toString(16).padStart(2, '0')).join('');
    out.push(hex, base64, base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  }
  return out.filter((x): x is string => typeof x === 'string');
}

/**
 * The logger used when no pino `logger` is given: warnings and errors (a misconfiguration, a session the proxy
 * had to end, a service or store failure) as one JSON line each on stderr, redacted like the pino child; no
 * per-request lines.
 */
export function stderrLogger(write: (line: string) => void = stderrWrite, redactor: Redactor = createRedactor([])): ProxyLog {
  const line = (level: 'warn' | 'error') => (obj: object, msg: string) => {
    const fields = redactor.value(obj) as object;
    write(`${JSON.stringify({ level, time: new Date().toISOString(), component: 'liveai-proxy', ...fields, msg: redactor.text(msg) })}\n`);
  };
  return { info() {}, warn: line('warn'), error: line('error') };
}

/** Writes to stderr; where there is no `process.stderr` (Cloudflare Workers, Vercel Edge), to `console.error`. */
function stderrWrite(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (s: string) => unknown } } }).process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(line);
  else console.error(line.trimEnd());
}

/**
 * The proxy's logger: a child of `logger` with {@link REDACT_PATHS} blanked by pino, whose every line (every
 * level) first goes through a {@link createRedactor | redactor} for `secrets`; or {@link stderrLogger}.
 */
export function proxyLogger(logger: Logger | undefined, secrets: readonly string[] = []): ProxyLog {
  const redactor = createRedactor(secrets);
  if (!logger) return stderrLogger(undefined, redactor);
  const child = logger.child({ component: 'liveai-proxy' }, { redact: { paths: REDACT_PATHS, censor: CENSOR } });
  const at = (level: 'info' | 'warn' | 'error') => (obj: object, msg: string) =>
    child[level](redactor.value(obj) as object, redactor.text(msg));
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming `x-request-id` when it is a sane string (≤ 128 of `A-Za-z0-9._:-`), else a new UUID. */
export function requestIdFrom(incoming: string | string[] | undefined | null): string {
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
}
