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
import { createTokenGate, isSessionAction } from '../../proxy/token-gate';
import { sweepRoute } from './sweep';

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
  /**
   * Turns on `GET` and `POST /sweep` (under `basePath`) for a scheduler (Vercel Cron, a Cloudflare Cron Trigger
   * calling the handler, any cron with curl): a request with `Authorization: Bearer <sweepSecret>` ends every
   * session past its maximum length (`sessionLimits.maxDurationMs`) and answers 200 `{"success": true}`; a wrong
   * or missing secret answers 401 `{detail}`. At least 16 characters (on Vercel, use the `CRON_SECRET` variable:
   * Vercel Cron sends it this way). Without it the route answers 404. `handler.sweep()` does the same in code.
   */
  sweepSecret?: string;
}

/**
 * What some platforms pass as the handler's second argument: the TCP peer's address (Node adapters,
 * Deno's `ServeHandlerInfo`), and Cloudflare's `ctx` with its `waitUntil`.
 * @public
 */
export interface PlatformInfo {
  /** The client's (TCP peer's) address, as Node adapters give it. */
  remoteAddress?: string;
  /** The client's address as Deno's `ServeHandlerInfo` gives it. */
  remoteAddr?: { hostname?: string };
  /**
   * Keeps the platform running a promise after the response (Cloudflare Workers: pass the fetch handler's `ctx`
   * as this argument). Takes precedence over the `waitUntil` option for this request.
   */
  waitUntil?(promise: Promise<unknown>): void;
}

/**
 * The Fetch API handler {@link createAvatarHandler} returns: `(request, platform?) => Promise<Response>`, with
 * `sweep()` for a scheduler.
 * @public
 */
export interface AvatarHandler {
  /** Answers one request to the proxy's routes (JSON, `{detail}` on errors); never rejects. */
  (request: Request, platform?: PlatformInfo): Promise<Response>;
  /**
   * Ends every session past its maximum length (`sessionLimits.maxDurationMs`) that the proxy's store knows of,
   * and records `end_reason: 'max_duration'` for it. Call it from a scheduler where functions stop after their
   * response (Cloudflare: `scheduled(controller, env, ctx) { ctx.waitUntil(handler.sweep()) }`); a long-lived
   * server also does this every few seconds on its own. Resolves when done; a session the service could not end
   * is logged and tried again at the next sweep.
   */
  sweep(): Promise<void>;
}

/**
 * The same proxy as `createAvatarProxy`, as a Fetch API handler `(Request) => Promise<Response>` for
 * frameworks without Express (Next.js route handlers, Hono, Bun, Deno, Cloudflare Workers, Vercel Edge).
 * Same routes, validation, client tokens, limits, errors and `x-request-id`; plus `/sweep` with `sweepSecret`.
 * @throws LiveAiError `invalid_request` naming a bad option (at creation); `missing_peer` (at creation) when
 *   `livekit` is set and livekit-server-sdk is not installed.
 * @public
 */
export function createAvatarHandler(options: AvatarHandlerOptions): AvatarHandler {
  const { basePath = '', clientIp, sweepSecret, ...proxyOptions } = options;
  const sweepAuthorized = sweepRoute(sweepSecret);
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
  // A session route's token is checked before its body is read; refusals count per client (rateLimit.invalidTokens).
  const tokenGate = createTokenGate(
    core.verifyToken,
    limits && ipStore ? createLimiter(ipStore, limits.windowMs, limits.invalidTokens) : undefined,
    core.sessionHit,
  );
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

  const sweep = () => core.guard.sweep();
  const handler = async (request: Request, platform?: PlatformInfo): Promise<Response> => {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    const started = performance.now();
    const url = new URL(request.url);
    let status = 500;
    let cors: Record<string, string> = {};
    core.seen(platform?.waitUntil);
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
      if (path === '/sweep' && (request.method === 'GET' || request.method === 'POST')) {
        await sweepAuthorized(request.headers.get('authorization'));
        await sweep();
        status = 200;
        return reply(200, { success: true }, requestId, cors);
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
      const sessionCounted =
        isSessionAction(match.action) &&
        (await tokenGate({ ...match, authorization: request.headers.get('authorization'), client: () => Promise.resolve(client) }));
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
        sessionCounted,
        // The host the browser addressed (Host header; a browser cannot forge it), else the URL's: some platforms
        // (Next.js route handlers) rebuild request.url with another host name than the one the page used.
        site: {
          origin,
          fetchSite: request.headers.get('sec-fetch-site'),
          self: request.headers.get('host') ? `${url.protocol}//${request.headers.get('host')}` : url.origin,
        },
        gone: () => request.signal.aborted,
        ...(platform?.waitUntil ? { waitUntil: (p: Promise<unknown>) => platform.waitUntil!(p) } : {}),
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
  return Object.assign(handler, { sweep });
}

function reply(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId, ...extra },
  });
}
