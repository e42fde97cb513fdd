/**
 * The proxy as a Cloudflare Worker, as the docs' recipe writes it, for the workerd tests (bundled with esbuild and
 * run in miniflare). Bindings: SERVICE_URL (the local service), OPTIONS (JSON merged into the proxy options),
 * LIVEAI_STORE (the ProxyStoreObject namespace, when the test uses the Durable Object store; else a memory store).
 * The `x-test-proxy` header picks one proxy per key, so a property test gets a fresh proxy per run.
 */
import {
  createAvatarHandler,
  durableObjectStore,
  memoryStore,
  type AvatarHandler,
  type DurableObjectNamespaceLike,
} from '../../../src/server/index';

export { ProxyStoreObject } from '../../../src/server/index';

interface Env {
  SERVICE_URL: string;
  OPTIONS?: string;
  LIVEAI_STORE?: DurableObjectNamespaceLike;
}
interface Ctx {
  waitUntil(promise: Promise<unknown>): void;
}

const SECRET = 'proxy-test-session-secret-0123456789-abcdef';
const LIVEKIT = { url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'lk-secret-Zq9wX4vK7pL2mN8bR5tY' };
const handlers = new Map<string, AvatarHandler>();
const quiet = () => {};

function handlerFor(env: Env, key: string): AvatarHandler {
  let handler = handlers.get(key);
  if (!handler) {
    const { timeoutMs, ...extra } = JSON.parse(env.OPTIONS ?? '{}') as { timeoutMs?: number } & Record<string, unknown>;
    handler = createAvatarHandler({
      basePath: '/api',
      upstream: { baseUrl: env.SERVICE_URL, apiKey: 'dev-key-alice', ...(timeoutMs ? { timeoutMs } : {}) },
      sessionSecret: SECRET,
      livekit: LIVEKIT,
      clientIp: (request) => request.headers.get('cf-connecting-ip'),
      // Without the Durable Object, this instance's memory, chosen explicitly (no warning per test proxy).
      store: env.LIVEAI_STORE ? durableObjectStore(env.LIVEAI_STORE) : memoryStore(),
      // The proxy's warnings (sessions it ended, a late answer) are what these tests cause on purpose; the tests
      // assert what the service and the browser see. Without a logger they would go to workerd's stderr.
      logger: { child: () => ({ info: quiet, warn: quiet, error: quiet }) },
      ...extra,
    });
    handlers.set(key, handler);
  }
  return handler;
}

export default {
  fetch(request: Request, env: Env, ctx: Ctx): Promise<Response> {
    return handlerFor(env, request.headers.get('x-test-proxy') ?? 'default')(request, ctx);
  },
  scheduled(_controller: unknown, env: Env, ctx: Ctx): void {
    ctx.waitUntil(handlerFor(env, 'default').sweep());
  },
};
