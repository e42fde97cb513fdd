import * as z from 'zod';
import type { Logger } from './peer-types';
import type { Store } from './peer-types';
import { LiveAiError } from '../core/index';
import { livekitServerUrl } from '../shared/room-url';
import { formatZodError, type ProviderLabelsInput } from '../core/internal';
import type { ProxyStore } from './limits/store';
import type { WaitUntil } from './platform';
import { secretProblem } from './secret';
import type { MetricsOptions } from './ops/metrics';

/**
 * What a request asks the proxy to do; passed to `authorize(req, action)`.
 * @public
 */
export type ProxyAction =
  | 'createRoom'
  | 'createSession'
  | 'getSession'
  | 'control'
  | 'leaveMeeting'
  | 'end'
  | 'renewToken'
  | 'listRooms'
  | 'listSessions'
  | 'usage';

/**
 * A value, or a promise of it: the proxy's callbacks (`authorize`, `admin`, `clientKey`, `agents`, …) may answer
 * either way, and the proxy awaits the answer.
 * @public
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Rate limits (express-rate-limit). `false` turns them off (e.g. when a gateway in front limits already).
 * @public
 */
export interface RateLimitOptions {
  /** Length of one counting window, in ms (default 60000). */
  windowMs?: number;
  /** Requests per client IP per window on the create and admin routes (default 20). */
  perIp?: number;
  /** Requests per session id per window on the session routes (default 120). */
  perSession?: number;
  /**
   * Requests with a missing, malformed, expired or foreign client token per client per window on the session
   * routes (default 30). They are refused (401/403) before their body is read; past this many, the client's
   * refused requests answer 429 with `Retry-After`. Requests with a valid token never count.
   */
  invalidTokens?: number;
  /**
   * Counter store shared by several proxy instances (e.g. a Redis store for express-rate-limit).
   * One instance serves both limits (their keys differ); a factory gets one store per limit.
   * Default: an in-memory store per proxy.
   */
  store?: Store | ((kind: 'ip' | 'session') => Store);
}

/**
 * Spending limits per client (the client address, see `trustProxy`). On by default; `false` turns them all off.
 * A client over a limit gets 429 `{detail}` with `Retry-After` before the service is called.
 * @public
 */
export interface SessionLimitOptions {
  /** Sessions (and rooms) a client may have running at once (default 3). */
  maxConcurrent?: number;
  /**
   * Longest life of a session, in ms (default 1800000 = 30 min). When it passes, the proxy ends the session
   * itself (control `terminate`); its status answer then carries `end_reason: 'max_duration'`.
   * The create answer tells the browser when that is (`session_expires_at`).
   */
  maxDurationMs?: number;
  /**
   * Sessions (and rooms) a client may create in any `createWindowMs` (default 30; a sliding window). A create the
   * service refuses (4xx) does not count.
   */
  createsPerWindow?: number;
  /** Window of `createsPerWindow`, in ms (default 3600000 = 1 hour). */
  createWindowMs?: number;
  /**
   * Session minutes a client may use per UTC day (default: no budget). Like `ownerLimits.minutesPerDay`, each
   * session is charged its maximum length (`maxDurationMs`, rounded up to whole minutes) when it starts, so the
   * budget is never overrun; a create the service refuses (4xx) gives its minutes back. Over it: 429 `{detail}`
   * with `Retry-After` until midnight UTC. Counted in the proxy's store, so instances sharing one (Redis) share
   * each client's budget.
   */
  minutesPerDay?: number;
}

/**
 * Ceilings for the whole site (all clients together), on top of the per-client {@link SessionLimitOptions}.
 * Reaching one answers every new create 503 `{detail}` with `Retry-After` (the widget shows "busy") until a
 * session ends or the window passes. They hold with `sessionLimits: false` too. `false` turns them off.
 * @public
 */
export interface OwnerLimitOptions {
  /**
   * Sessions (and rooms) running at once across all clients (default 10). Counted from the service's own list of
   * the account's running sessions whenever the proxy's store does not know them (a new process, a lost store):
   * until that count succeeds, creates are refused with 503 and `Retry-After`.
   */
  maxConcurrent?: number;
  /**
   * Sessions (and rooms) started in any `createWindowMs` across all clients (default 100; a sliding window, so no
   * window boundary lets twice as many through). A create the service refuses (4xx) does not count.
   */
  createsPerWindow?: number;
  /** Window of `createsPerWindow`, in ms (default 3600000 = 1 hour). */
  createWindowMs?: number;
  /**
   * Session minutes per UTC day (default: no budget). Each session is charged its maximum length
   * (`sessionLimits.maxDurationMs`, rounded up to whole minutes) when it starts, so the budget is never overrun.
   * Needs `sessionLimits` (without a maximum length a session's minutes are unbounded).
   */
  minutesPerDay?: number;
  /**
   * End the running sessions the proxy finds at the service without having counted them (after a restart or a
   * lost store, or started with the same API key elsewhere) once `sessionLimits.maxDurationMs` have passed since
   * their `created_at` (default false: they are only counted under `maxConcurrent`). Leave it off when other
   * systems (e.g. an agent server) start sessions with this API key.
   */
  endFoundSessions?: boolean;
}

/**
 * Options of `createAvatarProxy` / `createAvatarHandler`. `Req` is the framework's request
 * (Express `Request`, or the Fetch API `Request`), handed to your `authorize`, `admin` and `agents` callbacks.
 * @public
 */
export interface AvatarProxyOptions<Req> {
  /** The avatar service: base URL, API key (never leaves the server), time limit per call in ms (default 15000). */
  upstream: { baseUrl: string; apiKey: string; timeoutMs?: number; retries?: number; fetch?: typeof fetch };
  /** Key that signs client tokens (HS256): at least 32 bytes. Keep it secret; share it between instances. */
  sessionSecret: string | Uint8Array;
  /**
   * Which avatars may be started. An array: only these `agent_id`s (custom images refused).
   * A function: called with the `agent_id` (or `undefined` for a custom image) — return true to allow.
   * Default: any agent or image.
   */
  agents?: readonly string[] | ((agentId: string | undefined, req: Req) => MaybePromise<boolean>);
  /**
   * Who may change the avatar's face during a session (control `update-image`, with `image_base64` or
   * `image_url`): `true` any holder of the session's client token, `false` nobody (403 `{detail}`), or a function
   * deciding per request. Default: the `agents` policy for custom images — open when `agents` is not set, closed
   * when it is a list, and the answer of `agents(undefined, req)` when it is a function.
   */
  imageChanges?: boolean | ((req: Req) => MaybePromise<boolean>);
  /**
   * Who may set the avatar's prompts: `agent_prompt` and `agent_idle_prompt` on `POST /sessions`, and the control
   * events `update-agent-prompt` and `update-idle-prompt`. `true` any browser (holding the session's client token,
   * for the events), `false` nobody (403 `{detail}`), or a function deciding per request. Default: like
   * `imageChanges` — open when `agents` is not set, closed when it is a list (the persona is that of the agents you
   * chose), and the answer of `agents(undefined, req)` when it is a function.
   */
  promptChanges?: boolean | ((req: Req) => MaybePromise<boolean>);
  /**
   * The `model` values a browser may ask for on `POST /sessions` (e.g. `['cartoon']`; `aspect_ratio` comes only
   * with a model): a list, `true` any, `false` none (403 `{detail}`). Default: like `imageChanges` — any when `agents`
   * is not set, none when it is a list, and `agents(undefined, req)` decides when it is a function.
   */
  models?: boolean | readonly string[];
  /**
   * The idle timeout of the sessions created here, in whole seconds (1–86400): sent to the service as `idle_timeout` on
   * every `POST /sessions` whose browser set none, and the longest a browser may ask for (a longer one gets 403
   * `{detail}`). Default: none — the service's own idle timeout applies and a browser may not set `idle_timeout`
   * (403), so nobody keeps an idle avatar running longer than the service would.
   */
  idleTimeoutSeconds?: number;
  /**
   * Daily rooms a browser may send the avatar into (`properties.rtc_b_url` of an `rtc-b` session,
   * `rtc_b_properties.rtc_b_url` of a `websocket-rtc-b` one): host names (`'acme.daily.co'`: any https room
   * there), room URLs (`'https://acme.daily.co/live-show'`), or a function `(roomUrl, req) => boolean`.
   * Default: none — a create that names a room is refused with 403 `{detail}`, so nobody can send your paid
   * avatar into a room of theirs. A room URL not already in its normal form (a user name or password, a
   * backslash, `.` or `..` segments, a percent-encoded `/`, `\` or `.`, white space, an upper-case host) is
   * refused with 400 `{detail}` before any rule or function sees it, so the service gets the URL that was checked.
   */
  dailyRooms?: readonly string[] | ((roomUrl: string, req: Req) => MaybePromise<boolean>);
  /** Your app's authorization for each action (e.g. check a login cookie). false → 403. Default: allow. */
  authorize?: (req: Req, action: ProxyAction) => MaybePromise<boolean>;
  /** Who may list rooms and sessions (`GET /rooms`, `GET /sessions`). Default: nobody. */
  admin?: (req: Req) => MaybePromise<boolean>;
  /** LiveKit server for `rtc-a` / `websocket-rtc-a` sessions: ws(s) URL, API key and secret (the secret stays here). */
  livekit?: { url: string; apiKey: string; apiSecret: string };
  /** Rate limits; see {@link RateLimitOptions}. */
  rateLimit?: RateLimitOptions | false;
  /** pino logger (default: silent). The proxy logs through a child with secrets redacted. */
  logger?: Logger;
  /**
   * Lifetime of a client token, in seconds (default 900; 60 s to 1 day). The browser renews its token
   * (`POST /sessions/:id/token`) while the session lives, so a short lifetime costs nothing.
   */
  tokenTtlSeconds?: number;
  /**
   * The service's names for its media providers, e.g. `'rtc-a=livekit,rtc-b=daily'`: the proxy renames every
   * provider identifier in its calls to the service (your browser code keeps the neutral names). Default: neutral.
   */
  providerLabels?: ProviderLabelsInput;
  /**
   * The transport of the hosted rooms the service creates (`POST /rooms`): `rtc-b` for a service that hosts them
   * on Daily, `rtc-a` for one that hosts them on LiveKit (the local service does). Advertised at `GET /transport`
   * so pages that registered both transports download only this one before the first call. Default: unknown
   * until the service has created a room through this proxy instance; the service's answer always wins (a
   * warning is logged when it contradicts this option).
   */
  roomTransport?: 'rtc-a' | 'rtc-b';
  /**
   * The LiveKit server of the hosted rooms (`rtc-a`), as a `ws://` or `wss://` URL without user name, query or
   * fragment, e.g. `'wss://my-project.livekit.cloud'`. Advertised at `GET /transport` as `server_url`, so a page
   * warms its connection to that server before the Start click (livekit-client's `prepareConnection`). Implies
   * `roomTransport: 'rtc-a'`. Default: learned from the room URL of the last room the service created (its scheme,
   * host, port and path only; a path once two rooms agree on it); the service's rooms win over this option, with a
   * warning.
   */
  roomServerUrl?: string;
  /**
   * Origins (scheme://host[:port]) of pages allowed to call the routes that spend credits (create, control,
   * leave-meeting, token renewal), besides the proxy's own origin. A request whose `Origin` (or, without
   * one, `Sec-Fetch-Site`) shows another site is refused with 403. Listed origins also get CORS headers and
   * preflight answers. A function decides per origin. Default: none (same origin only).
   */
  allowedOrigins?: readonly string[] | ((origin: string, req: Req) => MaybePromise<boolean>);
  /**
   * Which `X-Forwarded-For` entries to believe for the client address. `false` (default): none, the address
   * is the TCP peer's. A number: that many proxies sit in front of the app, each appending one entry (only
   * safe when the app cannot be reached except through them). A list of proxy addresses or CIDR subnets
   * (`'127.0.0.1'`, `'10.0.0.0/8'`, `'::1'`, or `'loopback'`, `'private'`): entries are skipped from the right
   * while they come from those proxies (safe even when the app is reachable directly).
   * Express's `trust proxy` setting is not used.
   */
  trustProxy?: false | number | readonly string[];
  /** Spending limits per client; see {@link SessionLimitOptions}. `false` turns them off. */
  sessionLimits?: SessionLimitOptions | false;
  /** Ceilings for all clients together; see {@link OwnerLimitOptions}. `false` turns them off. */
  ownerLimits?: OwnerLimitOptions | false;
  /**
   * Prefix length by which IPv6 clients are grouped in every per-client limit (default 64: one host or home
   * usually holds a whole /64, so counting each /128 would multiply every cap). 128 or `false`: whole addresses.
   * IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) count as IPv4.
   */
  ipv6Subnet?: number | false;
  /**
   * Who a client is for the per-client limits, when your app knows better than an address: e.g. your signed-in
   * user's id. A non-empty string is that client's key (it replaces the address); `null` / `undefined` falls back
   * to the client address. Use it where the platform gives no trustworthy address (see "Client address" in the
   * docs); return a constant (e.g. `'anonymous'`) to put visitors without an account in one shared bucket.
   */
  clientKey?: (req: Req) => MaybePromise<string | null | undefined>;
  /**
   * Where counters live: rate limits, running sessions per client, session deadlines, ended sessions.
   * Default: this process's memory. Give `redisStore(...)` so several proxy instances enforce one limit.
   */
  store?: ProxyStore;
  /**
   * Where functions stop once they have answered (Vercel, Netlify, AWS Lambda, Cloudflare Workers, Deno Deploy):
   * the platform's way to finish work after the response, e.g. `waitUntil` from `@vercel/functions` or `after`
   * from `next/server`. The proxy hands it the work the browser does not wait for: ending a session whose create
   * was answered after the browser left or after the time limit, and freeing its place. On Cloudflare Workers pass
   * the request's context instead: `handler(request, ctx)`. On Vercel, without it, the proxy uses the request
   * context Vercel's runtime provides (as `@vercel/functions` does). Without any of these on such a platform, the
   * first request logs a warning naming this option. Not needed on a long-lived server.
   */
  waitUntil?: WaitUntil;
  /**
   * OpenTelemetry metrics (sessions created, ended, refused, running; session time and credits per agent; start
   * time; service calls; store errors). Default: measured through the global `MeterProvider` of
   * `@opentelemetry/api` when that optional package is installed — a no-op until your app registers an SDK (do
   * that before the first request). `{ meterProvider }` uses that provider instead; `false` turns them off.
   */
  metrics?: MetricsOptions | false;
}

const fn = <T>(name: string) => z.custom<T>((v) => typeof v === 'function', { message: `${name} must be a function` });
const byteLength = (s: string | Uint8Array) => (typeof s === 'string' ? new TextEncoder().encode(s).length : s.length);
const isStore = (v: unknown) => typeof v === 'function' || (typeof v === 'object' && v !== null && 'increment' in v);

const OptionsSchema = z.object({
  upstream: z.object(
    {
      baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
      apiKey: z.string({ error: 'must be a string' }).min(1, 'must not be empty'),
      timeoutMs: z.number().int().min(1).max(600_000).optional(),
      retries: z.number().int().min(0).max(5).optional(),
      fetch: fn<typeof fetch>('upstream.fetch').optional(),
    },
    { error: 'upstream {baseUrl, apiKey} is required' },
  ),
  sessionSecret: z
    .union([z.string(), z.instanceof(Uint8Array)], { error: 'must be a string or a Uint8Array' })
    .refine((s) => byteLength(s) >= 32, 'must be at least 32 bytes (e.g. 32 random bytes as hex)')
    .refine(
      (s) => byteLength(s) < 32 || secretProblem(s) === undefined,
      'is not random enough (e.g. use 32 random bytes as hex: openssl rand -hex 32)',
    ),
  agents: z.union([z.array(z.string().min(1)).readonly(), fn('agents')]).optional(),
  imageChanges: z.union([z.boolean(), fn('imageChanges')], { error: 'must be a boolean or a function' }).optional(),
  promptChanges: z.union([z.boolean(), fn('promptChanges')], { error: 'must be a boolean or a function' }).optional(),
  models: z.union([z.boolean(), z.array(z.string().min(1)).readonly()], { error: 'must be a boolean or a list of model names' }).optional(),
  idleTimeoutSeconds: z.number().int().min(1).max(86_400, 'must be at most 86400 seconds').optional(),
  dailyRooms: z
    .union([
      z
        .array(
          z
            .string()
            .regex(
              /^(https:\/\/[^/\s?#]+\/[^\s?#]+|[a-z0-9.-]+(:\d+)?)$/i,
              'must be room hosts like acme.daily.co or room URLs like https://acme.daily.co/room',
            ),
        )
        .readonly(),
      fn('dailyRooms'),
    ])
    .optional(),
  authorize: fn('authorize').optional(),
  admin: fn('admin').optional(),
  livekit: z
    .object({
      url: z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' }),
      apiKey: z.string().min(1, 'must not be empty'),
      apiSecret: z.string().min(1, 'must not be empty'),
    })
    .optional(),
  rateLimit: z
    .union([
      z.literal(false),
      z.object({
        windowMs: z.number().int().min(1).optional(),
        perIp: z.number().int().min(1).optional(),
        perSession: z.number().int().min(1).optional(),
        invalidTokens: z.number().int().min(1).optional(),
        store: z.custom<RateLimitOptions['store']>(isStore, { message: 'must be an express-rate-limit Store or a factory' }).optional(),
      }),
    ])
    .optional(),
  logger: z
    .custom<Logger>((v) => typeof v === 'object' && v !== null && typeof (v as Logger).child === 'function', {
      message: 'must be a pino logger',
    })
    .optional(),
  tokenTtlSeconds: z
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .optional(),
  allowedOrigins: z
    .union([
      z.array(z.string().regex(/^(https?:\/\/[^/\s]+|null)$/i, 'must be origins like https://app.example.com')).readonly(),
      fn('allowedOrigins'),
    ])
    .optional(),
  trustProxy: z.union([z.literal(false), z.number().int().min(0).max(10), z.array(z.string().min(1)).readonly()]).optional(),
  sessionLimits: z
    .union([
      z.literal(false),
      z.object({
        maxConcurrent: z.number().int().min(1).optional(),
        maxDurationMs: z.number().int().min(1000).optional(),
        createsPerWindow: z.number().int().min(1).optional(),
        createWindowMs: z.number().int().min(1000).optional(),
        minutesPerDay: z.number().int().min(1).optional(),
      }),
    ])
    .optional(),
  ownerLimits: z
    .union([
      z.literal(false),
      z.object({
        maxConcurrent: z.number().int().min(1).optional(),
        createsPerWindow: z.number().int().min(1).optional(),
        createWindowMs: z.number().int().min(1000).optional(),
        minutesPerDay: z.number().int().min(1).optional(),
        endFoundSessions: z.boolean().optional(),
      }),
    ])
    .optional(),
  ipv6Subnet: z.union([z.literal(false), z.number().int().min(8).max(128)], { error: 'must be a prefix length 8–128 or false' }).optional(),
  clientKey: fn('clientKey').optional(),
  roomTransport: z.enum(['rtc-a', 'rtc-b'], { error: 'must be rtc-a or rtc-b' }).optional(),
  roomServerUrl: z
    .string({ error: 'must be a ws:// or wss:// URL' })
    .refine(
      (u) => livekitServerUrl(u) === u.replace(/\/+$/, ''),
      'must be a ws:// or wss:// URL in normal form: a lower-case host, no user name, query or fragment',
    )
    .optional(),
  waitUntil: fn<WaitUntil>('waitUntil').optional(),
  metrics: z
    .union([
      z.literal(false),
      z.object({
        meterProvider: z
          .custom<MetricsOptions['meterProvider']>((v) => typeof (v as { getMeter?: unknown } | null)?.getMeter === 'function', {
            message: 'must be an OpenTelemetry MeterProvider',
          })
          .optional(),
      }),
    ])
    .optional(),
  store: z
    .custom<ProxyStore>((v) => typeof v === 'object' && v !== null && 'ledger' in v && 'limitStore' in v, {
      message: 'must be a store from memoryStore() or redisStore()',
    })
    .optional(),
});

/** Options after validation, with defaults filled in. */
export interface ResolvedOptions<Req> extends AvatarProxyOptions<Req> {
  secretKey: Uint8Array;
  tokenTtlSeconds: number;
  limits: (Required<Omit<RateLimitOptions, 'store'>> & { store: RateLimitOptions['store'] }) | false;
  /** `minutesPerDay` undefined when off. */
  sessionCaps: (Required<Omit<SessionLimitOptions, 'minutesPerDay'>> & Pick<SessionLimitOptions, 'minutesPerDay'>) | false;
  /** Undefined fields are off; `false` when the owner's ceilings are off. */
  ownerCaps: (Required<Omit<OwnerLimitOptions, 'minutesPerDay'>> & Pick<OwnerLimitOptions, 'minutesPerDay'>) | false;
}

/** Defaults of {@link SessionLimitOptions}: room for a visitor with a couple of tabs, and a small site's budget. */
export const DEFAULT_SESSION_LIMITS: Required<Omit<SessionLimitOptions, 'minutesPerDay'>> = {
  maxConcurrent: 3,
  maxDurationMs: 30 * 60_000,
  createsPerWindow: 30,
  createWindowMs: 3600_000,
};

/** Defaults of {@link OwnerLimitOptions}: ten sessions at once and a hundred an hour; no minute budget. */
export const DEFAULT_OWNER_LIMITS: Required<Omit<OwnerLimitOptions, 'minutesPerDay'>> = {
  maxConcurrent: 10,
  createsPerWindow: 100,
  createWindowMs: 3600_000,
  endFoundSessions: false,
};

/**
 * Validates the options once, at creation.
 * @throws LiveAiError `invalid_request` naming the option, e.g. `sessionSecret: must be at least 32 bytes`.
 *   Values (secrets) are never echoed in the message.
 */
export function resolveOptions<Req>(raw: AvatarProxyOptions<Req>, factory: string): ResolvedOptions<Req> {
  const r = OptionsSchema.safeParse(raw);
  if (!r.success) throw new LiveAiError('invalid_request', `${factory}: invalid options: ${formatZodError(r.error)}`);
  const o = raw;
  if (o.roomServerUrl !== undefined && o.roomTransport === 'rtc-b')
    throw new LiveAiError('invalid_request', `${factory}: invalid options: roomServerUrl: is a LiveKit server, but roomTransport is rtc-b`);
  const rl = o.rateLimit;
  return {
    ...o,
    secretKey: typeof o.sessionSecret === 'string' ? new TextEncoder().encode(o.sessionSecret) : o.sessionSecret,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 900,
    sessionCaps: o.sessionLimits === false ? false : { ...DEFAULT_SESSION_LIMITS, ...defined(o.sessionLimits ?? {}) },
    ownerCaps: o.ownerLimits === false ? false : { ...DEFAULT_OWNER_LIMITS, ...defined(o.ownerLimits ?? {}) },
    limits:
      rl === false
        ? false
        : {
            windowMs: rl?.windowMs ?? 60_000,
            perIp: rl?.perIp ?? 20,
            perSession: rl?.perSession ?? 120,
            invalidTokens: rl?.invalidTokens ?? 30,
            store: rl?.store,
          },
  };
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
