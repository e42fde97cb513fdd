/**
 * The shapes the proxy needs from its optional peers (pino, express-rate-limit, Express), declared here so that
 * `liveai-kit/server`'s declarations import none of them: an app on the Fetch handler type-checks with
 * `skipLibCheck: false` and without those packages installed. Each shape is a subset of the peer's own type, so
 * the peer's values fit it (pino's `Logger`, a rate-limit-redis `RedisStore`, an Express `Request`).
 * Express's own types are in `liveai-kit/server/express`.
 */

/**
 * One log call: a context object, then the message.
 * @public
 */
export type LogFn = (obj: object, msg?: string) => void;

/**
 * A pino-compatible logger (pino's `Logger` fits): the proxy logs through a child with secrets redacted.
 * @public
 */
export interface Logger {
  child(
    bindings: Record<string, unknown>,
    options?: { redact?: { paths: string[]; censor?: string } },
  ): { info: LogFn; warn: LogFn; error: LogFn };
}

/**
 * A client's count in the current window, as a rate-limit store answers it.
 * @public
 */
export interface RateLimitInfo {
  totalHits: number;
  resetTime: Date | undefined;
}

/**
 * A counter store with express-rate-limit's `Store` interface (e.g. rate-limit-redis's `RedisStore`): the
 * proxy's rate limits count requests per key in it.
 * @public
 */
export interface Store {
  init?(options: { windowMs: number }): void;
  get?(key: string): Promise<RateLimitInfo | undefined> | RateLimitInfo | undefined;
  increment(key: string): Promise<RateLimitInfo> | RateLimitInfo;
  decrement(key: string): Promise<void> | void;
  resetKey(key: string): Promise<void> | void;
  resetAll?(): Promise<void> | void;
  shutdown?(): Promise<void> | void;
  localKeys?: boolean;
  prefix?: string;
}

/**
 * What the Express router's callbacks (`authorize`, `admin`, `agents`, …) can rely on without Express's types:
 * a Node HTTP request. Annotate the parameter with Express's `Request` (or import `createAvatarProxy` from
 * `liveai-kit/server/express`) to use what Express adds.
 * @public
 */
export interface NodeRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
}

/**
 * An Express middleware (the router `createAvatarProxy` returns): mount it with `app.use('/api/avatar', it)`.
 * @public
 */
export type ExpressMiddleware = (req: NodeRequest, res: object, next: (err?: unknown) => void) => void;
