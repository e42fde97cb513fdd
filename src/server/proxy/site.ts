import { LiveAiError } from '../../core/index';
import type { ProxyAction } from '../options';

/** What a request says about the page that sent it. */
export interface RequestSite {
  /** `Origin` header. */
  origin?: string | null;
  /** `Sec-Fetch-Site` header (`same-origin`, `same-site`, `cross-site`, `none`). */
  fetchSite?: string | null;
  /** The proxy's own origin as the request reached it (scheme://host[:port]). */
  self?: string | null;
}

/** Routes that spend credits or act on a running session, guarded by the origin policy. */
export const ORIGIN_GUARDED: ReadonlySet<ProxyAction> = new Set<ProxyAction>([
  'createRoom',
  'createSession',
  'control',
  'leaveMeeting',
  'renewToken',
]);

export type OriginRule<Req> = readonly string[] | ((origin: string, req: Req) => boolean | Promise<boolean>) | undefined;

/** True when `origin` is in `allowed` (exact, case-insensitive) or the function says so. */
export async function originAllowed<Req>(allowed: OriginRule<Req>, origin: string, req: Req): Promise<boolean> {
  if (allowed === undefined) return false;
  if (typeof allowed === 'function') return (await allowed(origin, req)) === true;
  const o = origin.toLowerCase();
  return allowed.some((a) => a.toLowerCase() === o);
}

/**
 * The origin policy: a request from a page of another origin is refused unless that origin is allowed.
 * `Origin` decides when present (compared with the proxy's own host, whatever the scheme, since TLS often ends
 * in front of the app); without it, `Sec-Fetch-Site: cross-site` or `same-site` refuses. Requests with neither
 * (servers, curl) pass: they cannot borrow a visitor's browser.
 * @throws LiveAiError `forbidden` (403).
 */
export async function checkSite<Req>(allowed: OriginRule<Req>, site: RequestSite, req: Req): Promise<void> {
  const origin = site.origin?.trim();
  if (origin) {
    if (origin !== 'null' && sameHost(origin, site.self)) return;
    if (await originAllowed(allowed, origin, req)) return;
    throw refused();
  }
  const fs = site.fetchSite?.trim().toLowerCase();
  if (fs === 'cross-site' || fs === 'same-site') throw refused();
}

function sameHost(origin: string, self: string | null | undefined): boolean {
  if (!self) return false;
  try {
    return new URL(origin).host.toLowerCase() === new URL(self).host.toLowerCase();
  } catch {
    return false;
  }
}

// The Host hint: a dev server's proxy with `changeOrigin` rewrites Host, and every create from its page lands here.
const refused = () =>
  new LiveAiError(
    'forbidden',
    'Requests from this origin are not allowed (see the allowedOrigins option; ' +
      "a dev server's proxy in front must keep the Host header: no changeOrigin)",
    { status: 403 },
  );

/** CORS answer headers for an allowed cross-origin request (credentials allowed, so cookies work with `authorize`). */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'x-request-id, retry-after, ratelimit, ratelimit-policy',
    vary: 'Origin',
  };
}

/** Extra headers of a preflight (OPTIONS) answer for an allowed origin. */
export const PREFLIGHT_HEADERS: Record<string, string> = {
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'authorization, content-type, x-request-id',
  'access-control-max-age': '600',
};
