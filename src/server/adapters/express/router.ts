import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type * as ExpressNs from 'express';
import type MulterNs from 'multer';
import { LiveAiError, MAX_UPLOAD_BYTES } from '../../../core/index';
import { createProxyCore, type ProxyCall, type ProxyCore } from '../../proxy/core';
import { checkDeclaredImageType } from '../../session/images';
import { requestIdFrom } from '../../logging';
import type { AvatarProxyOptions, ProxyAction } from '../../options';
import type { IncomingMessage, Server } from 'node:http';
import { assertPeers, installed, loadPeer, peersFor } from '../../peers';
import { createWsRelay } from './ws-relay';
import type { OriginRule } from '../../proxy/site';
import { logFailure, toWireError } from '../../proxy/wire-error';
import { limiters } from './limits';
import { checkBodyEncoding } from '../fetch/body';
import { clientIdentity } from '../../limits/client-ip';
import { RateLimited } from '../../limits/guard';
import { corsHeaders, originAllowed, PREFLIGHT_HEADERS } from '../../proxy/site';
import { matchRoute } from '../../proxy/routes';
import { createTokenGate } from '../../proxy/token-gate';

type Express = typeof ExpressNs & { default?: typeof ExpressNs };
/** Per-request state: its id, when it started, and whether the token gate counted it against its session's limit. */
type Locals = { requestId: string; started: number; sessionCounted?: boolean };
type Files = Record<string, Express.Multer.File[]> | undefined;

/**
 * The companion proxy as an Express `Router` (contract). Mount it anywhere:
 * `app.use('/api/avatar', createAvatarProxy({...}))`. Routes, relative to the mount point:
 * `POST /rooms`, `POST /sessions` (JSON or multipart `image` ≤ 4 MB + `payload`), `GET /sessions/:id`,
 * `POST /sessions/:id/control`, `POST /sessions/:id/leave-meeting`, `POST /sessions/:id/end`,
 * admin-only `GET /rooms` and `GET /sessions`, and `GET /transport` (the transport of the hosted rooms, see the
 * `roomTransport` option). Every answer is JSON (`{detail}` on errors) with `x-request-id`.
 * Behind a reverse proxy, set the `trustProxy` option so per-client limits see the client's address (Express's
 * `trust proxy` setting is not used). Pages of other origins are refused unless `allowedOrigins` lists them.
 * @throws LiveAiError `invalid_request` naming a bad option; `missing_peer` (at creation) listing every package
 *   the options need that is not installed (express, multer, express-rate-limit unless `rateLimit: false`,
 *   livekit-server-sdk when `livekit` is set) with one `npm install` command.
 * @public
 */
export function createAvatarProxy(options: AvatarProxyOptions<Request>): Router {
  assertPeers('createAvatarProxy', peersFor('express', options));
  const core = createProxyCore(options, 'createAvatarProxy');
  const expressMod = loadPeer<Express>('express', 'createAvatarProxy');
  const express = expressMod.default ?? expressMod;
  const router = express.Router();
  const json = express.json({ limit: '2mb' });
  const text = express.text({ type: 'text/plain', limit: '16kb' });
  const multipart = multipartParser();
  const identify = clientIdentity({ ...core.options, factory: 'createAvatarProxy' }, core.log);
  // Once per request (the request limit and the route both ask).
  const keys = new WeakMap<Request, Promise<string>>();
  const clientOf = (req: Request): Promise<string> => {
    let key = keys.get(req);
    if (!key) {
      key = identify({ req, peer: req.socket.remoteAddress, forwardedFor: headerText(req.headers['x-forwarded-for']) });
      keys.set(req, key);
    }
    return key;
  };
  const { perIp, invalidTokens } = limiters(core, clientOf);
  const sessionBody: RequestHandler = (req, res, next) =>
    req.is('multipart/form-data') ? multipart(req, res, next) : json(req, res, next);
  // A session route's client token is checked before its body is read (a refused request's body is never
  // buffered); refusals count per client (rateLimit.invalidTokens).
  // A valid token's request counts against its session's limit there too (an over-limit one is refused unread).
  const gate = createTokenGate(core.verifyToken, invalidTokens, core.sessionHit);
  const tokenFirst =
    (action: ProxyAction): RequestHandler =>
    (req, res, next) => {
      const sessionId = typeof req.params.id === 'string' ? req.params.id : undefined;
      gate({ action, sessionId, authorization: req.headers.authorization, client: () => clientOf(req) }).then((hit) => {
        (res.locals as Locals).sessionCounted = hit;
        next();
      }, next);
    };
  // The body of /end holds at most a client token.
  const endJson = express.json({ limit: '16kb' });

  const chains: Record<ProxyAction, RequestHandler[]> = {
    createRoom: [perIp, json],
    listRooms: [perIp],
    createSession: [perIp, sessionBody],
    listSessions: [perIp],
    usage: [perIp],
    getSession: [tokenFirst('getSession')],
    control: [tokenFirst('control'), json],
    leaveMeeting: [tokenFirst('leaveMeeting'), json],
    end: [tokenFirst('end'), endJson, text],
    renewToken: [tokenFirst('renewToken')],
  };
  const caps = core.options.sessionCaps;
  const relay = installed('ws')
    ? createWsRelay({
        sealer: core.sealer,
        guard: core.guard,
        log: core.log,
        allowedOrigins: core.options.allowedOrigins as OriginRule<IncomingMessage>,
        lifetimeMs: caps ? caps.maxDurationMs : 24 * 3600_000,
      })
    : undefined;
  const relayFor = (req: Request): ProxyCall<Request>['relay'] => {
    const server = (req.socket as { server?: Server }).server;
    if (!relay || !server) return undefined;
    const origin = headerText(req.headers.origin);
    const secure = (req.socket as { encrypted?: boolean }).encrypted === true || origin?.toLowerCase().startsWith('https:') === true;
    const base = { scheme: secure ? ('wss' as const) : ('ws' as const), host: req.headers.host ?? '', mount: req.baseUrl };
    return (handle, upstreamAddress) => relay.address(handle, upstreamAddress, base, server);
  };
  for (const action of Object.keys(chains) as ProxyAction[]) chains[action].push(run(core, action, clientOf, relayFor));

  // One layer for every route (request id, CORS, body encoding, then the route table): each extra router layer
  // or route costs CPU on every request. Paths not in the table fall through to the layers below.
  const stamp = requestIds(core);
  router.use((req, res, next) => {
    stamp(req, res);
    const origin = headerText(req.headers.origin);
    if (!origin || core.options.allowedOrigins === undefined) return dispatch(req, res, next);
    originAllowed(core.options.allowedOrigins, origin, req).then((ok) => {
      if (ok) for (const [k, v] of Object.entries(corsHeaders(origin))) res.setHeader(k, v);
      if (req.method !== 'OPTIONS') return dispatch(req, res, next);
      if (!ok) return sendJson(res, 403, { detail: 'Requests from this origin are not allowed (see the allowedOrigins option)' });
      for (const [k, v] of Object.entries(PREFLIGHT_HEADERS)) res.setHeader(k, v);
      res.statusCode = 204;
      res.end();
    }, next);
  });
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    let match: ReturnType<typeof matchRoute>;
    try {
      if (req.method === 'POST') checkBodyEncoding(req.headers['content-type'], headerText(req.headers['content-encoding']));
      // Like Express routes: HEAD is served as GET, and the route names match in any letter case.
      match = matchRoute(req.method === 'HEAD' ? 'GET' : req.method, pathOf(req), true);
    } catch (e) {
      return next(e);
    }
    if (!match) return next();
    if (match.action === 'transportHint') {
      const hinted = core.transportHint.reply();
      for (const [k, v] of Object.entries(hinted.headers)) res.setHeader(k, v);
      return sendJson(res, hinted.status, hinted.body);
    }
    if (match.action === 'health' || match.action === 'ready')
      return void core.ops.probe(match.action).then((p) => sendJson(res, p.status, p.body), next);
    req.params = match.sessionId === undefined ? {} : { id: match.sessionId };
    runChain(chains[match.action], req, res, next);
  };
  router.use((_req: Request, res: Response) => {
    sendJson(res, 404, { detail: 'Not found' });
  });
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const w = toWireError(err);
    const requestId = (res.locals as Locals).requestId ?? requestIdFrom(undefined);
    logFailure(core.log, err, requestId, w);
    res.setHeader('x-request-id', requestId);
    if (err instanceof RateLimited) res.setHeader('retry-after', String(err.retryAfterS));
    sendJson(res, w.status, { detail: w.detail });
  });
  return router;
}

function run(
  core: ProxyCore<Request>,
  action: ProxyAction,
  clientOf: (req: Request) => Promise<string>,
  relayFor: (req: Request) => ProxyCall<Request>['relay'],
): RequestHandler {
  const listing = action === 'listRooms' || action === 'listSessions' || action === 'usage';
  const creates = action === 'createRoom' || action === 'createSession';
  // Only the create routes end a session the browser went away from. The list routes need no client; the session
  // routes do (an attached session counts against its browser's cap, an end frees the slot).
  const perClient = !listing;
  return async (req, res) => {
    let gone = false;
    if (creates) {
      res.once('close', () => {
        if (!res.writableEnded) gone = true;
      });
    }
    const multipart = action === 'createSession' && req.is('multipart/form-data') ? multipartParts(req, req.files as Files) : undefined;
    const call: ProxyCall<Request> = {
      action,
      req,
      requestId: (res.locals as Locals).requestId,
      sessionId: typeof req.params.id === 'string' ? req.params.id : undefined,
      authorization: req.headers.authorization,
      body: req.body,
      // Express parses the query string on each read of req.query: only the list routes need it.
      query: listing ? (req.query as Record<string, unknown>) : undefined,
      multipart,
      // The create routes need the client; the session routes use it when it is known (an attached session's slot,
      // the slot an end frees) and never fail for want of it.
      client: !perClient ? undefined : creates ? await clientOf(req) : await clientOf(req).catch(() => undefined),
      site: {
        origin: headerText(req.headers.origin),
        fetchSite: headerText(req.headers['sec-fetch-site']),
        self: `http://${req.headers.host ?? ''}`,
      },
      gone: () => gone,
      relay: action === 'createSession' ? relayFor(req) : undefined,
      sessionCounted: (res.locals as Locals).sessionCounted === true,
    };
    const reply = await core.handle(call);
    sendJson(res, reply.status, reply.body);
  };
}

/**
 * Writes `body` as JSON in one `end()`: no ETag (answers are `no-store`), no content-type lookup, which
 * `res.json()` would do on every request.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/** Sets `x-request-id` on every response and logs one line per request (no bodies, no headers). */
function requestIds(core: ProxyCore<Request>): (req: Request, res: Response) => void {
  return (req, res) => {
    const locals = res.locals as Locals;
    locals.requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('x-request-id', locals.requestId);
    res.setHeader('cache-control', 'no-store');
    if (core.logsRequests) {
      locals.started = performance.now();
      res.once('close', () => {
        const ms = Math.round((performance.now() - locals.started) * 10) / 10;
        core.log.info(
          { reqId: locals.requestId, method: req.method, path: req.baseUrl + pathOf(req), status: res.statusCode, ms },
          'avatar proxy request',
        );
      });
    }
  };
}

function multipartParser(): RequestHandler {
  const multerMod = loadPeer<typeof MulterNs & { default?: typeof MulterNs }>('multer', 'createAvatarProxy');
  const multer = multerMod.default ?? multerMod;
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 4, parts: 6, fieldSize: 64 * 1024, headerPairs: 50 },
    fileFilter(_req, file, cb) {
      if (file.fieldname !== 'image') return cb(null, true);
      try {
        checkDeclaredImageType(file.mimetype);
        cb(null, true);
      } catch (e) {
        cb(e as Error);
      }
    },
  }).fields([
    { name: 'image', maxCount: 1 },
    { name: 'payload', maxCount: 1 },
  ]);
  return (req, res, next) =>
    upload(req, res, (err?: unknown) => {
      if (!err) return next();
      const known = err instanceof LiveAiError || (err as { name?: string }).name === 'MulterError';
      next(known ? err : new LiveAiError('invalid_request', 'Malformed multipart body', { status: 400 }));
    });
}

function multipartParts(req: Request, files: Files) {
  const image = files?.image?.[0];
  const payloadFile = files?.payload?.[0];
  const fields = (req.body ?? {}) as Record<string, unknown>;
  if (Object.keys(fields).some((k) => k !== 'payload')) {
    throw new LiveAiError('invalid_request', 'Unexpected multipart part: send only "image" and "payload"', { status: 400 });
  }
  const field = fields.payload;
  const payload = typeof field === 'string' ? field : payloadFile ? payloadFile.buffer.toString('utf8') : undefined;
  return {
    image: image ? { bytes: new Uint8Array(image.buffer), mimetype: image.mimetype, filename: image.originalname } : undefined,
    payload,
  };
}

const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/** Runs `chain` like an Express route's handlers: each calls `next()` to go on, or `next(err)` (or throws/rejects) to fail. */
function runChain(chain: RequestHandler[], req: Request, res: Response, done: NextFunction): void {
  let i = 0;
  const step = (err?: unknown) => {
    if (err) return done(err);
    const handler = chain[i++];
    if (!handler) return done();
    try {
      const r = handler(req, res, step) as unknown;
      if (r instanceof Promise) r.catch(done);
    } catch (e) {
      done(e);
    }
  };
  step();
}

/**
 * The path below the router's mount point, from `req.url` (which Express rewrites when it mounts a router), not
 * `req.path`: a host server may set its own `path` on the request (Storybook's and Vite's dev servers do), which
 * hides Express's getter and still holds the full path.
 */
function pathOf(req: Request): string {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
}
