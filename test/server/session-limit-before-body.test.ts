import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express, { type Request as ExpressRequest } from 'express';
import { createAvatarHandler, createAvatarProxy, issueClientToken, type AvatarProxyOptions } from '../../src/server/index';
import { SECRET, listen, proxyOptions, startEmulator, type Emulator } from './helpers';
import { BIG, postUnfinishedBody, pulledBody } from './big-body';

/**
 * Issue 36, the point left open: a request with a valid client token over its session's request limit
 * (`rateLimit.perSession`) is refused 429 before its body is read, as one with an invalid token is. Before, the
 * session's limit was counted only once the body had been read: a valid token's holder could still make the proxy
 * buffer up to 2 MB per request past the limit.
 */
let emulator: Emulator;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  for (const close of closers) await close();
  await emulator.close();
});

const rateLimit = { perIp: 1000, perSession: 2, invalidTokens: 1000 };

describe('a valid token over its session request limit is refused before the body is read', () => {
  it('express: an unfinished 1.9 MB control body gets 429 before it ends, its bytes unread', async () => {
    const app = express();
    const readAtAnswer: number[] = [];
    app.use((req: ExpressRequest, res, next) => {
      res.once('finish', () => readAtAnswer.push(req.socket.bytesRead));
      next();
    });
    app.use('/api/avatar', createAvatarProxy(proxyOptions(emulator.url, { rateLimit, trustProxy: 1 })));
    const server = await listen(app);
    closers.push(server.close);
    const { session_id, client_token } = await issueClientToken({ sessionSecret: SECRET }, 'svc-session-valid');
    const url = `${server.url}/api/avatar/sessions/${encodeURIComponent(session_id)}`;
    const auth = { authorization: `Bearer ${client_token}`, 'x-forwarded-for': '203.0.113.20' };
    // The session's 2 requests of the window (the service does not know this session: 404, but they count).
    for (let i = 0; i < 2; i++) expect((await fetch(url, { headers: auth })).status).not.toBe(429);
    const answer = await postUnfinishedBody(`${url}/control`, auth);
    expect(answer.status).toBe(429);
    expect(answer.detail).toMatch(/^Too many requests; try again in \d+ s/);
    // The answer came while less than half of the body had been read.
    expect(readAtAnswer.at(-1)).toBeLessThan(BIG / 2);
  }, 30_000);

  it('fetch: a 1.9 MB control body gets 429 with none of it read', async () => {
    const handler = createAvatarHandler({
      ...(proxyOptions(emulator.url, { rateLimit }) as AvatarProxyOptions<never>),
      basePath: '/api/avatar',
    } as never);
    const { session_id, client_token } = await issueClientToken({ sessionSecret: SECRET }, 'svc-session-valid-2');
    const url = `http://127.0.0.1/api/avatar/sessions/${encodeURIComponent(session_id)}`;
    const auth = { authorization: `Bearer ${client_token}` };
    const platform = { remoteAddress: '203.0.113.21' };
    for (let i = 0; i < 2; i++) expect((await handler(new Request(url, { headers: auth }), platform)).status).not.toBe(429);
    const { body, pulled } = pulledBody();
    const res = await handler(
      new Request(`${url}/control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body,
        duplex: 'half',
      } as RequestInit),
      platform,
    );
    expect(res.status).toBe(429);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^Too many requests; try again in \d+ s/);
    expect(pulled()).toBe(0);
  });

  it('a request within the limit is counted once, not twice (the gate and the route)', async () => {
    const handler = createAvatarHandler({
      ...(proxyOptions(emulator.url, { rateLimit }) as AvatarProxyOptions<never>),
      basePath: '/api/avatar',
    } as never);
    const { session_id, client_token } = await issueClientToken({ sessionSecret: SECRET }, 'svc-session-valid-3');
    const url = `http://127.0.0.1/api/avatar/sessions/${encodeURIComponent(session_id)}`;
    const get = () =>
      handler(new Request(url, { headers: { authorization: `Bearer ${client_token}` } }), { remoteAddress: '203.0.113.22' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get()).status);
    expect(statuses.map((s) => s === 429)).toEqual([false, false, true]);
  });
});
