/**
 * One proxy flow on whatever runtime imports this (bundled): create → status → control → end against the local
 * service at `serviceUrl`, through `createAvatarHandler`. Resolves the statuses seen, for the runtimes test.
 */
import { createAvatarHandler, memoryStore } from '../../../src/server/index';

const quiet = () => {};

export async function smoke(serviceUrl: string): Promise<number[]> {
  const handler = createAvatarHandler({
    basePath: '/api',
    upstream: { baseUrl: serviceUrl, apiKey: 'dev-key-alice' },
    sessionSecret: 'proxy-test-session-secret-0123456789-abcdef',
    livekit: { url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'lk-secret-Zq9wX4vK7pL2mN8bR5tY' },
    store: memoryStore(),
    // Quiet: the proxy's warnings (here, on Vercel Edge, that no waitUntil was given) would go to the runtime's
    // stderr; this smoke test is about the statuses.
    logger: { child: () => ({ info: quiet, warn: quiet, error: quiet }) },
  });
  const send = (path: string, init: RequestInit = {}) =>
    handler(new Request(`https://proxy.example/api${path}`, init), { remoteAddress: '198.51.100.7' });
  const json = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const created = await send('/sessions', json({ agent_id: 'agent-demo', transport_type: 'rtc-a' }));
  const { session_id: id, client_token: token } = (await created.json()) as { session_id: string; client_token: string };
  const status = await send(`/sessions/${id}`, { headers: { authorization: `Bearer ${token}` } });
  const control = await send(`/sessions/${id}/control`, json({ event: 'reset-idle-timeout' }, token));
  const end = await send(`/sessions/${id}/end`, json({}, token));
  const after = (await (await send(`/sessions/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    session_status: string;
  };
  return [created.status, status.status, control.status, end.status, after.session_status === 'COMPLETED' ? 1 : 0];
}
