import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createAvatarHandler, type AvatarProxyOptions } from '../../src/server/index';
import { createRedactor, proxyLogger, secretsOf, stderrLogger } from '../../src/server/logging';
import { ALICE, LIVEKIT, SECRET, listen, proxyApp, proxyOptions } from './helpers';

/**
 * Issue 36 item 9: what the proxy logs keeps no secret, whatever its length or where it sits: the configured API
 * key, the session secret, the LiveKit API secret, client and LiveKit tokens (JWTs), Authorization and X-API-Key
 * headers. Through a real pino logger writing to a stream.
 */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyb29tIn0.c2lnbmF0dXJl';
const SECRETS = [ALICE, LIVEKIT.apiSecret, SECRET, JWT, 'Bearer-credential-1', 'header-api-key-2'];

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers) await c();
});

describe('the proxy logger', () => {
  it('blanks the configured secrets, tokens and credential headers in every field, at every level', () => {
    const { logger, lines } = capture();
    const log = proxyLogger(logger, secretsOf(proxyOptions('http://127.0.0.1:1', { livekit: LIVEKIT })));
    const obj = {
      upstreamDetail: `Invalid API key ${ALICE}`,
      err: new Error(`LiveKit said: secret ${LIVEKIT.apiSecret} refused; session secret ${SECRET}`),
      deep: { deeper: { headers: { authorization: 'Bearer Bearer-credential-1', 'x-api-key': 'header-api-key-2' } } },
      quoted: `got Authorization: Bearer Bearer-credential-1 and token ${JWT}`,
    };
    log.info(obj, 'info line');
    log.warn(obj, `warn line ${ALICE}`);
    log.error(obj, 'error line');
    expect(lines.map((l) => (JSON.parse(l) as { level: number }).level)).toEqual([30, 40, 50]);
    const all = lines.join('\n');
    for (const secret of SECRETS) expect(all, secret).not.toContain(secret);
    // What is not a secret is kept, so the line still says what happened.
    expect(all).toContain('Invalid API key [redacted]');
    expect(all).toContain('LiveKit said: secret [redacted] refused');
  });
});

describe('the stderr logger (no pino logger given)', () => {
  it('blanks the same values', () => {
    const lines: string[] = [];
    const log = stderrLogger((l) => lines.push(l), createRedactor([ALICE, LIVEKIT.apiSecret]));
    log.warn({ upstreamDetail: `key ${ALICE}`, nested: { authorization: 'Bearer Bearer-credential-1' } }, 'w');
    log.error({ err: `secret ${LIVEKIT.apiSecret} and ${JWT}` }, `e ${ALICE}`);
    expect(lines).toHaveLength(2);
    for (const secret of [ALICE, LIVEKIT.apiSecret, JWT, 'Bearer-credential-1']) expect(lines.join('\n')).not.toContain(secret);
  });
});

/** A real HTTP service on loopback that refuses every call with `status` and `detail`. */
async function refusingService(status: number, detail: string): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Post = (path: string, body: unknown) => Promise<number>;
const adapters: Record<string, (options: AvatarProxyOptions<never>) => Promise<Post>> = {
  express: async (options) => {
    const server = await listen(proxyApp(options as never));
    closers.push(server.close);
    return async (path, body) => {
      const res = await fetch(`${server.url}/api/avatar${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status;
    };
  },
  fetch: async (options) => {
    const handler = createAvatarHandler({ ...options, basePath: '/api/avatar' } as never);
    return async (path, body) => {
      const req = new Request(`http://127.0.0.1/api/avatar${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const res = await handler(req, { remoteAddress: '198.51.100.7' });
      await res.arrayBuffer();
      return res.status;
    };
  },
};

describe.each(Object.keys(adapters))('%s adapter: the service’s texts in the log', (name) => {
  it('a 401 carrying the LiveKit secret and a 400 echoing the API key are logged without them', async () => {
    // Attack (before): both texts were logged as the service wrote them (the key is 13 characters, under the
    // old 24-character rule; the 401 text was not redacted at all).
    for (const [status, detail, answered, level] of [
      [401, `Invalid X-API-Key ${ALICE}; LiveKit secret ${LIVEKIT.apiSecret} rejected`, 502, 50],
      [400, `Agent agent-x is not available to key ${ALICE}`, 400, 40],
    ] as const) {
      const { logger, lines } = capture();
      const baseUrl = await refusingService(status, detail);
      const post = await adapters[name]!(proxyOptions(baseUrl, { logger, upstream: { baseUrl, apiKey: ALICE } }) as never);
      expect(await post('/rooms', { agent_id: 'agent-demo' })).toBe(answered);
      const all = lines.join('\n');
      expect(lines.some((l) => (JSON.parse(l) as { level: number }).level === level)).toBe(true);
      expect(all).not.toContain(ALICE);
      expect(all).not.toContain(LIVEKIT.apiSecret);
    }
  });
});
