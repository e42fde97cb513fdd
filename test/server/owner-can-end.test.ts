import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createAvatarHandler } from '../../src/server/index';
import { createServiceClient } from '../../src/server/service-client';
import { ALICE, LIVEKIT, SECRET, serviceId, startEmulator, type Emulator } from './helpers';

/**
 * Property: whatever valid and hostile clients do around a session (token-less floods, another session's
 * token, forged tokens, cross-origin creates, spoofed X-Forwarded-For, the owner spending their own budget),
 * the owner can always end their own session, by header or by beacon, and the service then reports it ended.
 */
let emulator: Emulator;
let service: ReturnType<typeof createServiceClient>;

beforeAll(async () => {
  emulator = await startEmulator(5);
  service = createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });
});
afterAll(async () => {
  await emulator.close();
});

const OWNER_IP = '198.51.100.10';
const HOSTILE_IPS = [OWNER_IP, '203.0.113.66', '203.0.113.67'];
type Route = 'get' | 'control' | 'leave' | 'end' | 'token';
type Act =
  | { kind: 'noToken' | 'otherToken' | 'forged' | 'ownerUse'; route: Route; ip: string; junk: string }
  | { kind: 'create'; ip: string; origin: string | null; xff: string | null };

const route = fc.constantFrom<Route>('get', 'control', 'leave', 'end', 'token');
const act: fc.Arbitrary<Act> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('noToken', 'otherToken', 'forged', 'ownerUse') as fc.Arbitrary<'noToken'>,
    route,
    ip: fc.constantFrom(...HOSTILE_IPS),
    junk: fc.string({ maxLength: 40 }),
  }),
  fc.record({
    kind: fc.constant('create' as const),
    ip: fc.constantFrom(...HOSTILE_IPS),
    origin: fc.constantFrom(null, 'https://evil.example', 'null'),
    xff: fc.option(fc.ipV4(), { nil: null }),
  }),
);

describe('the owner can always end their own session (property)', () => {
  it('holds for any mix of valid and hostile clients', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(act, { minLength: 1, maxLength: 40 }), fc.boolean(), async (acts, byBeacon) => {
        runs += 1;
        const handler = createAvatarHandler({
          basePath: '/api',
          upstream: { baseUrl: emulator.url, apiKey: ALICE },
          sessionSecret: SECRET,
          livekit: LIVEKIT,
          rateLimit: { perIp: 5, perSession: 3 },
          sessionLimits: { maxConcurrent: 2, createsPerWindow: 4 },
        });
        const send = (path: string, init: RequestInit, ip: string) =>
          handler(new Request(`https://proxy.example/api${path}`, init), { remoteAddress: ip });
        const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
        const created = await send('/sessions', json({ agent_id: 'agent-demo', transport_type: 'rtc-a' }), OWNER_IP);
        expect(created.status).toBe(201);
        const owner = (await created.json()) as { session_id: string; client_token: string };
        const others: string[] = [];
        const id = owner.session_id;
        for (const a of acts) {
          if (a.kind === 'create') {
            const headers: Record<string, string> = {};
            if (a.origin) headers.origin = a.origin;
            if (a.xff) headers['x-forwarded-for'] = a.xff;
            const res = await send('/sessions', json({ agent_id: 'agent-demo', transport_type: 'rtc-a' }, headers), a.ip);
            if (res.status === 201) others.push(((await res.json()) as { client_token: string }).client_token);
            else expect([403, 429]).toContain(res.status);
            continue;
          }
          const token =
            a.kind === 'ownerUse'
              ? owner.client_token
              : a.kind === 'otherToken'
                ? others[0]
                : a.kind === 'forged'
                  ? `${owner.client_token.slice(0, -4)}AAAA`
                  : undefined;
          const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
          const path = { get: '', control: '/control', leave: '/leave-meeting', end: '/end', token: '/token' }[a.route];
          if (a.kind === 'ownerUse' && a.route === 'end') continue; // the owner ends only at the end
          const body =
            a.route === 'control' ? { event: 'reset-idle-timeout' } : a.route === 'leave' ? { meeting_bot_id: a.junk || 'm' } : {};
          const res = await send(
            `/sessions/${encodeURIComponent(id)}${path}`,
            a.route === 'get' ? { headers: auth } : json(body, auth),
            a.ip,
          );
          expect(res.status).toBeLessThan(500);
        }
        const end = byBeacon
          ? await send(
              `/sessions/${id}/end`,
              {
                method: 'POST',
                headers: { 'content-type': 'text/plain;charset=UTF-8' },
                body: JSON.stringify({ client_token: owner.client_token }),
              },
              OWNER_IP,
            )
          : await send(`/sessions/${id}/end`, json({}, { authorization: `Bearer ${owner.client_token}` }), OWNER_IP);
        expect(end.status).toBe(200);
        expect((await service.getSession(await serviceId(id))).session_status).toBe('COMPLETED');
      }),
      { numRuns: 40 },
    );
    console.log(`owner-can-end: ${runs} runs of up to 40 mixed requests, the owner's /end always 200`);
  });
});
