import type { RateLimitInfo, Store } from '../peer-types';
import { memoryStore, type ProxyStore, type SessionLedger } from './store';

/**
 * The part of a Cloudflare `DurableObjectNamespace` binding that {@link durableObjectStore} uses.
 * @public
 */
export interface DurableObjectNamespaceLike {
  /** The id of the object named `name`. */
  idFromName(name: string): unknown;
  /** A stub of the object with id `id` (Cloudflare's `DurableObjectId`, as `idFromName` returned it). */
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/**
 * Options of {@link durableObjectStore}.
 * @public
 */
export interface DurableObjectStoreOptions {
  /** Name of the one Durable Object that holds the counters (default `'liveai-proxy-store'`); proxies that share it share their limits. */
  name?: string;
}

/** Where a call goes inside the Durable Object: the ledger, or one rate-limit store by its name. */
type Target = { ledger: true } | { limit: string };
interface StoreCall {
  target: Target;
  method: string;
  args: unknown[];
}

/** The rate-limit store methods a proxy calls. */
const LIMIT_METHODS = new Set(['init', 'get', 'increment', 'decrement', 'resetKey', 'resetAll']);
const CALL_URL = 'https://liveai-proxy-store.internal/call';

/**
 * A {@link ProxyStore} for Cloudflare Workers: the counters (rate limits, running sessions per client and for the
 * owner, deadlines, ended sessions) live in one Durable Object, so every instance of your Worker, everywhere,
 * enforces one limit. Export {@link ProxyStoreObject} from your Worker, bind it, and pass the binding:
 *
 * ```ts
 * export { ProxyStoreObject } from 'liveai-kit/server';
 * // wrangler.jsonc: "durable_objects": { "bindings": [{ "name": "LIVEAI_STORE", "class_name": "ProxyStoreObject" }] },
 * //                 "migrations": [{ "tag": "v1", "new_sqlite_classes": ["ProxyStoreObject"] }]
 * createAvatarHandler({ ..., store: durableObjectStore(env.LIVEAI_STORE) })
 * ```
 *
 * Each call is one request to the object, which runs one call at a time (so every step is atomic). A failed call
 * rejects; the proxy then refuses creates with 503 (fail closed), as with an unreachable Redis. The object keeps the
 * counters in its memory: when Cloudflare restarts it (rarely; a deploy does), they start empty, and the session's
 * own deadline (carried in its handle) still bounds every session.
 * @public
 */
export function durableObjectStore(namespace: DurableObjectNamespaceLike, options: DurableObjectStoreOptions = {}): ProxyStore {
  const name = options.name ?? 'liveai-proxy-store';
  // A stub belongs to the request that made it (Workers refuse I/O across requests): one per call.
  const call = async (target: Target, method: string, args: unknown[]): Promise<unknown> => {
    const stub = namespace.get(namespace.idFromName(name) as never);
    const body: StoreCall = { target, method, args };
    const res = await stub.fetch(CALL_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await res.json().catch(() => ({}))) as { result?: unknown; error?: string };
    if (!res.ok) throw new Error(`the proxy's Durable Object store failed: ${answer.error ?? `HTTP ${res.status}`}`);
    return answer.result;
  };
  // Every ledger method is forwarded by its name, so the object answers whatever the ledger offers.
  const ledger = new Proxy({} as SessionLedger, {
    get: (_t, method) =>
      typeof method === 'string' && method !== 'then' ? (...args: unknown[]) => call({ ledger: true }, method, args) : undefined,
  });
  return {
    ledger,
    limitStore(limit: string): Store {
      const on = { limit };
      const info = (r: unknown): RateLimitInfo => {
        const v = r as { totalHits: number; resetTime?: string };
        return { totalHits: v.totalHits, resetTime: v.resetTime === undefined ? undefined : new Date(v.resetTime) };
      };
      // The window length reaches the object before this instance's first count (each instance sends it once).
      let windowMs = 60_000;
      let ready: Promise<unknown> | undefined;
      const init = () =>
        (ready ??= call(on, 'init', [{ windowMs }]).catch((e: unknown) => {
          ready = undefined;
          throw e;
        }));
      return {
        init: (o) => {
          windowMs = o.windowMs;
        },
        get: async (key) => {
          await init();
          const r = await call(on, 'get', [key]);
          return r === undefined || r === null ? undefined : info(r);
        },
        increment: async (key) => {
          await init();
          return info(await call(on, 'increment', [key]));
        },
        decrement: async (key) => void (await call(on, 'decrement', [key])),
        resetKey: async (key) => void (await call(on, 'resetKey', [key])),
      };
    },
  };
}

/**
 * The Durable Object class behind {@link durableObjectStore}: export it from your Worker
 * (`export { ProxyStoreObject } from 'liveai-kit/server'`) and bind it in your Wrangler configuration. It holds one
 * {@link memoryStore} and answers the proxy's calls to it. It is reachable only through its binding.
 * @public
 */
export class ProxyStoreObject {
  private readonly store: ProxyStore = memoryStore();
  private readonly limits = new Map<string, Store>();

  /** Cloudflare constructs it with the object's state and the Worker's environment; neither is used. */
  constructor(_state?: unknown, _env?: unknown) {}

  /** Answers one call: `POST` with `{target, method, args}` → 200 `{result}`, 400 `{error}` for a call it does not know. */
  async fetch(request: Request): Promise<Response> {
    let call: StoreCall;
    try {
      call = (await request.json()) as StoreCall;
    } catch {
      return Response.json({ error: 'the body must be JSON' }, { status: 400 });
    }
    const { target, method, args } = call ?? {};
    if (typeof method !== 'string' || !Array.isArray(args) || typeof target !== 'object' || target === null) {
      return Response.json({ error: 'expected {target, method, args}' }, { status: 400 });
    }
    let object: Record<string, unknown>;
    if ('ledger' in target) {
      object = this.store.ledger as unknown as Record<string, unknown>;
      if (!Object.hasOwn(object, method)) return Response.json({ error: `the ledger has no method ${method}` }, { status: 400 });
    } else if (typeof target.limit === 'string' && LIMIT_METHODS.has(method)) {
      let store = this.limits.get(target.limit);
      if (!store) this.limits.set(target.limit, (store = this.store.limitStore(target.limit)));
      object = store as unknown as Record<string, unknown>;
    } else {
      return Response.json({ error: `unknown call ${method}` }, { status: 400 });
    }
    const fn = object[method];
    if (typeof fn !== 'function') return Response.json({ error: `the store has no method ${method}` }, { status: 400 });
    try {
      const result: unknown = await (fn as (...a: unknown[]) => unknown).apply(object, args);
      return Response.json(result === undefined ? {} : { result });
    } catch (err) {
      return Response.json({ error: err instanceof Error ? err.message : String(err) }, { status: 500 });
    }
  }
}
