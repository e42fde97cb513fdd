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

const silent: ProxyLog = { info() {}, warn() {}, error() {} };

/** The proxy's logger: a redacting child of `logger`, or a silent one. */
export function proxyLogger(logger: Logger | undefined): ProxyLog {
  if (!logger) return silent;
  return logger.child({ component: 'liveai-proxy' }, { redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming `x-request-id` when it is a sane string (≤ 128 of `A-Za-z0-9._:-`), else a new UUID. */
export function requestIdFrom(incoming: string | string[] | undefined | null): string {
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
}
