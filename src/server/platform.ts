import type { ProxyLog } from './logging';

/**
 * Keeps the platform running `promise` after the response was sent: Cloudflare's `ctx.waitUntil`, Vercel's
 * `waitUntil` from `@vercel/functions`, Next.js `after`. The proxy hands it the work it does not make the browser
 * wait for (ending a session nobody will hear of, freeing a slot); the promise never rejects.
 * @public
 */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** Platforms that freeze or stop a function once it has answered, as {@link frozenPlatform} names them. */
export type FrozenPlatform = 'Vercel' | 'Vercel Edge' | 'AWS Lambda' | 'Netlify' | 'Cloudflare Workers' | 'Deno Deploy';

type Env = (name: string) => string | undefined;

/** An environment variable on Node, Bun, Vercel Edge (`process.env`) or Deno (only with the permission granted). */
const envOf: Env = (name) => {
  try {
    const g = globalThis as {
      process?: { env?: Record<string, string | undefined> };
      Deno?: { env: { get(n: string): string | undefined }; permissions?: { querySync?(d: object): { state: string } } };
    };
    const fromProcess = g.process?.env?.[name];
    if (fromProcess !== undefined) return fromProcess;
    // Deno asks the user (or throws) for a variable it has no permission to read: ask only when granted.
    if (g.Deno?.permissions?.querySync?.({ name: 'env', variable: name }).state === 'granted') return g.Deno.env.get(name);
  } catch {
    // No environment on this runtime.
  }
  return undefined;
};

/**
 * The platform this process runs on when it is one that freezes or stops functions after their response (so no
 * timer and no floating promise of the proxy runs after it, and each instance has its own memory), else undefined
 * (a long-lived server: Node, Bun, Deno). Detected from `VERCEL`, `AWS_LAMBDA_FUNCTION_NAME`, `NETLIFY`,
 * `DENO_DEPLOYMENT_ID`, the `EdgeRuntime` global (Vercel Edge) and `navigator.userAgent` (Cloudflare Workers).
 */
export function frozenPlatform(env: Env = envOf): FrozenPlatform | undefined {
  const g = globalThis as { EdgeRuntime?: unknown; navigator?: { userAgent?: string } };
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers';
  if (typeof g.EdgeRuntime === 'string') return 'Vercel Edge';
  if (env('VERCEL')) return 'Vercel';
  if (env('AWS_LAMBDA_FUNCTION_NAME')) return 'AWS Lambda';
  if (env('NETLIFY')) return 'Netlify';
  if (env('DENO_DEPLOYMENT_ID')) return 'Deno Deploy';
  return undefined;
}

/**
 * Work the proxy starts without making the browser wait for it. `work` never rejects to the caller: a failure is
 * logged. `waitUntil` (the request's, else the proxy's option) keeps the platform running it after the response.
 */
export type Background = (work: Promise<unknown>, waitUntil?: WaitUntil) => void;

/**
 * The `waitUntil` of the request being handled on Vercel, read where `@vercel/functions`' own `waitUntil` reads it
 * (the request context Vercel's runtime publishes on `globalThis`), or undefined elsewhere.
 */
export function vercelWaitUntil(): WaitUntil | undefined {
  const context = (globalThis as Record<symbol, { get?: () => { waitUntil?: WaitUntil } | undefined } | undefined>)[
    Symbol.for('@vercel/request-context')
  ];
  const waitUntil = context?.get?.()?.waitUntil;
  return typeof waitUntil === 'function' ? (p) => waitUntil(p) : undefined;
}

/**
 * The proxy's {@link Background}: hands each piece of work to the request's `waitUntil`, else to `option`, else
 * (on Vercel) to the request context's.
 */
export function createBackground(option: WaitUntil | undefined, log: ProxyLog): Background {
  return (work, perRequest) => {
    const safe = work.then(
      () => undefined,
      (err: unknown) => log.error({ err: err instanceof Error ? err.message : String(err) }, 'avatar proxy background work failed'),
    );
    const keep = perRequest ?? option ?? vercelWaitUntil();
    if (!keep) return;
    try {
      keep(safe);
    } catch (err) {
      // `after()` outside a request scope, a `waitUntil` of a request that is over: the work still runs here.
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'avatar proxy: waitUntil refused the work');
    }
  };
}

/**
 * Warnings, once per proxy, for a platform that stops functions after their response: at creation when the
 * counters live in this instance's memory (the default store), and on the first request without `waitUntil`.
 */
export function platformWarnings(
  log: ProxyLog,
  o: { factory: string; store: boolean; limits: boolean; waitUntil: boolean; platform?: FrozenPlatform },
) {
  const platform = o.platform ?? frozenPlatform();
  if (platform && o.limits && !o.store) {
    log.warn(
      { factory: o.factory, platform },
      `${o.factory}: on ${platform} each instance has its own memory, so the spending limits (per client and the ` +
        'owner ceilings) multiply with the number of instances and sessions past their maximum length are not found. ' +
        'Set the store option to a shared store: redisStore(...)' +
        (platform === 'Cloudflare Workers' ? ' or durableObjectStore(...)' : '') +
        ' (store: memoryStore() silences this warning)',
    );
  }
  let warned = !platform || o.waitUntil;
  return {
    /** Call on each request with the request's own `waitUntil`, if any. */
    request(perRequest: WaitUntil | undefined) {
      if (warned || perRequest || vercelWaitUntil()) return;
      warned = true;
      log.warn(
        { factory: o.factory, platform },
        `${o.factory}: on ${platform} nothing runs after the response unless the platform is told to wait for it: ` +
          'set the waitUntil option (Vercel: waitUntil from @vercel/functions; Next.js: after from next/server), or ' +
          'on Cloudflare Workers pass the context: handler(request, ctx). Without it, a session created for a browser ' +
          'that left is never ended',
      );
    },
  };
}
