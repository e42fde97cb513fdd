import { assertPeers, peersFor } from './peers';
import { LiveAiError } from '../core/errors';
import { createProxyCore, type ProxyCall } from './core';
import { WindowStore, createLimiter } from './fetch-limiter';
import { readBody } from './fetch-body';
import { requestIdFrom } from './logging';
import type { AvatarProxyOptions, ProxyAction } from './options';
import { logFailure, toWireError } from './wire-error';

/** Options of {@link createAvatarHandler}: the proxy options plus where it is mounted and how to find the client IP. */
export interface AvatarHandlerOptions extends AvatarProxyOptions<Request> {
  /** Path prefix the handler serves, e.g. `/api/avatar` for `app/api/avatar/[...path]/route.ts` (default none). */
  basePath?: string;
  /**
   * Client address for the per-IP limit. Default: the last `X-Forwarded-For` entry (the one your platform's
   * proxy added), else `X-Real-IP`, else one shared bucket. Override it when your platform differs.
   */
  clientIp?: (request: Request) => string | undefined;
}

/**
 * The same proxy as `createAvatarProxy`, as a Fetch API handler `(Request) => Promise<Response>` for
 * frameworks without Express (Next.js route handlers, Hono, Bun, Deno, workers with Node APIs).
 * Same routes, validation, client tokens, limits, errors and `x-request-id` (architecture §4).
 * @throws LiveAiError `invalid_request` naming a bad option (at creation); `missing_peer` (at creation) when
 *   `livekit` is set and livekit-server-sdk is not installed.
 */
export function createAvatarHandler(options: AvatarHandlerOptions): (request: Request) => Promise<Response> {
  const { basePath = '', clientIp = defaultClientIp, ...proxyOptions } = options;
  assertPeers('createAvatarHandler', peersFor('fetch', proxyOptions));
  const core = createProxyCore(proxyOptions, 'createAvatarHandler');
  const prefix = `/${basePath.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const limits = core.options.limits;
  const storeFor = (kind: 'ip' | 'session') =>
    limits === false ? undefined : typeof limits.store === 'function' ? limits.store(kind) : (limits.store ?? new WindowStore());
  const ipStore = storeFor('ip');
  const sessionStore = limits !== false && limits.store !== undefined && typeof limits.store !== 'function' ? ipStore : storeFor('session');
  const ipLimit = limits && ipStore ? createLimiter(ipStore, limits.windowMs, limits.perIp) : undefined;
  const sessionLimit = limits && sessionStore ? createLimiter(sessionStore, limits.windowMs, limits.perSession) : undefined;

  return async (request) => {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    const started = performance.now();
    const url = new URL(request.url);
    let status = 500;
    try {
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : undefined;
      const match = path === undefined ? undefined : matchRoute(request.method, path);
      if (!match) throw new LiveAiError('not_found', 'Not found', { status: 404 });
      const limiter = match.sessionId === undefined ? ipLimit : sessionLimit;
      const key = match.sessionId === undefined ? `ip:${clientIp(request) ?? 'unknown'}` : `session:${match.sessionId}`;
      const wait = limiter ? await limiter.hit(key) : 0;
      if (wait > 0) {
        status = 429;
        return reply(429, { detail: `Too many requests; try again in ${wait} s` }, requestId, { 'retry-after': String(wait) });
      }
      const call: ProxyCall<Request> = {
        ...match,
        req: request,
        requestId,
        authorization: request.headers.get('authorization'),
        query: Object.fromEntries(url.searchParams),
        ...(await readBody(request, match.action)),
      };
      const result = await core.handle(call);
      status = result.status;
      return reply(result.status, result.body, requestId);
    } catch (err) {
      const w = toWireError(err);
      status = w.status;
      logFailure(core.log, err, requestId, w);
      return reply(w.status, { detail: w.detail }, requestId);
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      core.log.info({ reqId: requestId, method: request.method, path: url.pathname, status, ms }, 'avatar proxy request');
    }
  };
}

/** Route table of architecture §4, on a path relative to the mount point. */
export function matchRoute(method: string, path: string): { action: ProxyAction; sessionId?: string } | undefined {
  const parts = path.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const [a, rawId, c, ...rest] = parts;
  if (rest.length > 0 || a !== 'sessions' && a !== 'rooms') return undefined;
  if (rawId === undefined) {
    if (method === 'POST') return { action: a === 'rooms' ? 'createRoom' : 'createSession' };
    if (method === 'GET') return { action: a === 'rooms' ? 'listRooms' : 'listSessions' };
    return undefined;
  }
  if (a !== 'sessions' || rawId === '') return undefined;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(rawId);
  } catch {
    throw new LiveAiError('invalid_request', 'Malformed URL', { status: 400 });
  }
  if (c === undefined) return method === 'GET' ? { action: 'getSession', sessionId } : undefined;
  const action = c === 'control' ? 'control' : c === 'leave-meeting' ? 'leaveMeeting' : c === 'end' ? 'end' : undefined;
  return method === 'POST' && action ? { action, sessionId } : undefined;
}

function defaultClientIp(request: Request): string | undefined {
  const xff = request.headers.get('x-forwarded-for');
  const last = xff?.split(',').map((s) => s.trim()).filter(Boolean).pop();
  return last ?? request.headers.get('x-real-ip') ?? undefined;
}

function reply(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId, ...extra },
  });
}
