import { assertPeers, peersFor } from '../../peers';
import { LiveAiError } from '../../../core/index';
import { createProxyCore, type ProxyCall } from '../../proxy/core';
import { WindowStore, createLimiter } from './limiter';
import { readBody } from './body';
import { requestIdFrom } from '../../logging';
import type { AvatarProxyOptions } from '../../options';
import { logFailure, toWireError } from '../../proxy/wire-error';
import { clientIdentity } from '../../limits/client-ip';
import { RateLimited } from '../../limits/guard';
import { corsHeaders, originAllowed, PREFLIGHT_HEADERS } from '../../proxy/site';
import { matchRoute } from '../../proxy/routes';

/**
 * Options of {@link createAvatarHandler}: the proxy options plus where it is mounted and how to find the client IP.
 * @public
 */
export interface AvatarHandlerOptions extends AvatarProxyOptions<Request> {
  /** Path prefix the handler serves, e.g. `/api/avatar` for `app/api/avatar/[...path]/route.ts` (default none). */
  basePath?: string;
  /**
   * The client's address for the per-client limits, from a header your platform or reverse proxy itself writes
   * (overwriting what the client sent), e.g. `(req) => req.headers.get('x-real-ip')` on Vercel. It must return one
   * IP address (`ip:port` is accepted) or `null` / `undefined` to fall back to the platform's address (the second
   * argument `{remoteAddress}`, or Deno's `{remoteAddr: {hostname}}`, with `X-Forwarded-For` read per
   * `trustProxy`); anything else is ignored, with one warning in the log. Never read a header a client can set:
   * a self-hosted `next start` passes a client's own `X-Real-IP` and `X-Forwarded-For` through unchanged. When no
   * address and no `clientKey` is found, create and list requests answer 503 `{detail}` and one error line says
   * what to set.
   */
  clientIp?: (request: Request, platform?: PlatformInfo) => string | null | undefined;
}

/**
 * What some platforms pass as the handler's second argument: the TCP peer's address.
 * @public
 */
export interface PlatformInfo {
  remoteAddress?: string;
  remoteAddr?: { hostname?: string };
}

/**
 * The same proxy as `createAvatarProxy`, as a Fetch API handler `(Request) => Promise<Response>` for
 * frameworks without Express (Next.js route handlers, Hono, Bun, Deno, workers with Node APIs).
 * Same routes, validation, client tokens, limits, errors and `x-request-id`.
 * @throws LiveAiError `invalid_request` naming a bad option (at creation); `missing_peer` (at creation) when
 *   `livekit` is set and livekit-server-sdk is not installed.
 * @public
 */
export function createAvatarHandler(options: AvatarHandlerOptions): (request: Request, platform?: PlatformInfo) => Promise<Response> {
  const { basePath = '', clientIp, ...proxyOptions } = options;
  assertPeers('createAvatarHandler', peersFor('fetch', proxyOptions));
  const core = createProxyCore(proxyOptions, 'createAvatarHandler');
  const prefix = `/${basePath.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const limits = core.options.limits;
  const ipStore =
    limits === false
      ? undefined
      : typeof limits.store === 'function'
        ? limits.store('ip')
        : (limits.store ?? core.options.store?.limitStore('ip') ?? new WindowStore());
  const ipLimit = limits && ipStore ? createLimiter(ipStore, limits.windowMs, limits.perIp) : undefined;
  const identify = clientIdentity({ ...core.options, factory: 'createAvatarHandler' }, core.log);
  const clientOf = (request: Request, platform: PlatformInfo | undefined) =>
    identify({
      req: request,
      peer: platform?.remoteAddress ?? platform?.remoteAddr?.hostname,
      forwardedFor: request.headers.get('x-forwarded-for'),
      ...(clientIp ? { own: () => clientIp(request, platform) } : {}),
    });
  // The client is only needed by the per-client limits.
  const needsClient = ipLimit !== undefined || core.options.sessionCaps !== false;

  return async (request, platform) => {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    const started = performance.now();
    const url = new URL(request.url);
    let status = 500;
    let cors: Record<string, string> = {};
    try {
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : undefined;
      const origin = request.headers.get('origin');
      cors = origin && (await originAllowed(core.options.allowedOrigins, origin, request)) ? corsHeaders(origin) : {};
      if (request.method === 'OPTIONS' && origin && core.options.allowedOrigins !== undefined) {
        if (Object.keys(cors).length === 0)
          throw new LiveAiError('forbidden', 'Requests from this origin are not allowed (see the allowedOrigins option)', { status: 403 });
        status = 204;
        return new Response(null, { status: 204, headers: { ...cors, ...PREFLIGHT_HEADERS, 'x-request-id': requestId } });
      }
      const match = path === undefined ? undefined : matchRoute(request.method, path);
      if (!match) throw new LiveAiError('not_found', 'Not found', { status: 404 });
      if (match.action === 'transportHint') {
        const hinted = core.transportHint.reply();
        status = hinted.status;
        return reply(hinted.status, hinted.body, requestId, { ...cors, ...hinted.headers });
      }
      if (match.action === 'health' || match.action === 'ready')
        return await core.ops.probe(match.action).then((p) => ((status = p.status), reply(p.status, p.body, requestId)));
      // The create and list routes need the client (the per-client request limit, the spending limits): without one
      // they are refused. The session routes use it when it is known (an attached session's slot, the slot an end
      // frees) and never fail for want of it.
      const client = !needsClient
        ? undefined
        : match.sessionId === undefined
          ? await clientOf(request, platform)
          : await clientOf(request, platform).catch(() => undefined);
      if (client !== undefined && match.sessionId === undefined && ipLimit) {
        const wait = await ipLimit.hit(`ip:${client}`);
        if (wait > 0) throw new RateLimited(`Too many requests; try again in ${wait} s`, wait);
      }
      const call: ProxyCall<Request> = {
        ...match,
        req: request,
        requestId,
        authorization: request.headers.get('authorization'),
        query:
          match.action === 'listRooms' || match.action === 'listSessions' || match.action === 'usage'
            ? Object.fromEntries(url.searchParams)
            : undefined,
        client,
        // The host the browser addressed (Host header; a browser cannot forge it), else the URL's: some platforms
        // (Next.js route handlers) rebuild request.url with another host name than the one the page used.
        site: {
          origin,
          fetchSite: request.headers.get('sec-fetch-site'),
          self: request.headers.get('host') ? `${url.protocol}//${request.headers.get('host')}` : url.origin,
        },
        gone: () => request.signal.aborted,
        ...(await readBody(request, match.action)),
      };
      const result = await core.handle(call);
      status = result.status;
      return reply(result.status, result.body, requestId, cors);
    } catch (err) {
      const w = toWireError(err);
      status = w.status;
      logFailure(core.log, err, requestId, w);
      const retry: Record<string, string> = err instanceof RateLimited ? { 'retry-after': String(err.retryAfterS) } : {};
      return reply(w.status, { detail: w.detail }, requestId, { ...cors, ...retry });
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      core.log.info({ reqId: requestId, method: request.method, path: url.pathname, status, ms }, 'avatar proxy request');
    }
  };
}

function reply(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId, ...extra },
  });
}
