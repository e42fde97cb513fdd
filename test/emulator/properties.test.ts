import * as v from 'valibot';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlEventSchema, CreateSessionRequestSchema, inlineImageTooLarge } from '../../src/core/schemas';
import { createEmulator, type Emulator } from '../../src/emulator/index';
import { ALICE, bodies } from './helpers';
import { writeResult } from '../setup/results';

/**
 * Property tests (fast-check): thousands of malformed bodies, queries, headers and ids against every route.
 * Every answer must be a 4xx (or the 2xx the oracle predicts) with `{detail}` on errors, never a 5xx, a
 * dropped connection or a hang (each request has a 5 s deadline).
 */
const RUNS = 150;
let inputs = 0;
let emu: Emulator;
let sessionId = '';
let wsSessionId = '';

interface Answer {
  status: number;
  body: unknown;
}
async function send(
  method: string,
  path: string,
  init: { body?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<Answer> {
  inputs++;
  const body0 = init.body instanceof Uint8Array ? new Blob([new Uint8Array(init.body)]) : init.body;
  const res = await fetch(`${emu.url}${path}`, { method, body: body0, headers: init.headers, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body };
}
/** A 4xx answer with a JSON `{detail}` string. */
function expect4xx(a: Answer, what: string): void {
  expect(a.status, `${what}: ${JSON.stringify(a.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(a.status, what).toBeLessThan(500);
  expect(typeof (a.body as { detail?: unknown }).detail, `${what}: ${JSON.stringify(a.body).slice(0, 300)}`).toBe('string');
}
function expectNot5xx(a: Answer, what: string): void {
  expect(a.status, what).toBeLessThan(500);
  if (a.status >= 400) expect(typeof (a.body as { detail?: unknown }).detail, what).toBe('string');
}

const JSON_CT = { 'Content-Type': 'application/json', 'X-API-Key': ALICE };
/** Bodies that are never a valid request: junk text, bytes, JSON non-objects, objects with unrelated keys. */
const junkBody = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }).filter((t) => t.trim() !== '' && !t.trim().startsWith('{')),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).filter((b) => b[0] !== 0x7b),
  fc.json().filter((j) => !j.trim().startsWith('{')),
  fc
    .dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !['event', 'agent_id', 'meeting_bot_id', 'transport_type'].includes(k)),
      fc.jsonValue(),
      { minKeys: 1, maxKeys: 6 },
    )
    .map((o) => JSON.stringify(o)),
);
/** Path segments that are not an existing id (no '/', not only dots). */
const junkId = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .filter((s) => !s.includes('/') && !/^\.+$/.test(s) && s !== sessionId && s !== wsSessionId);
const rawPercent = fc
  .string({ unit: fc.constantFrom('%', 'A', 'f', '0', 'Z', 'E', '2', '~'), minLength: 1, maxLength: 12 })
  .filter((s) => !/^\.+$/.test(s));

const POST_ROUTES = () => [
  '/liveai/rooms',
  '/liveai/sessions',
  `/liveai/sessions/${sessionId}/control`,
  `/liveai/sessions/${sessionId}/leave-meeting`,
  '/__emulator/faults',
  `/__emulator/sessions/${sessionId}/app-message`,
  `/__emulator/sessions/${sessionId}/meeting-bots`,
  '/__emulator/accounts/dev-key-bob/credits',
];
const ID_ROUTES: [string, (id: string) => string][] = [
  ['GET', (id) => `/liveai/sessions/${id}`],
  ['POST', (id) => `/liveai/sessions/${id}/control`],
  ['POST', (id) => `/liveai/sessions/${id}/leave-meeting`],
  ['GET', (id) => `/__emulator/sessions/${id}`],
  ['GET', (id) => `/__emulator/sessions/${id}/events`],
  ['POST', (id) => `/__emulator/sessions/${id}/fail`],
  ['GET', (id) => `/liveai/assets/${id}`],
];

/** The list endpoints' oracle: `page` ≥ 1, `limit` 1–100, offset ≤ 1000 → 200, else 400. */
function pageOk(page: string | undefined, limit: string | undefined): boolean {
  const int = (v: string | undefined, d: number) => (v === undefined ? d : /^-?\d+$/.test(v.trim()) ? Number(v) : NaN);
  const p = int(page, 1);
  const l = int(limit, 25);
  return Number.isSafeInteger(p) && Number.isSafeInteger(l) && p >= 1 && l >= 1 && l <= 100 && (p - 1) * l <= 1000;
}

describe('property tests: malformed input never crashes or hangs the emulator', () => {
  beforeAll(async () => {
    emu = await createEmulator({ port: 0, media: false, queueMs: 10, imageHosts: 'loopback', imageFetchTimeoutMs: 500 });
    const mk = async (b: object) =>
      ((await send('POST', '/liveai/sessions', { body: JSON.stringify(b), headers: JSON_CT })).body as { session_id: string }).session_id;
    sessionId = await mk(bodies.rtcA());
    wsSessionId = await mk(bodies.wsA());
  });
  afterAll(async () => {
    writeResult('server/emulator-properties.json', { malformedOrRandomInputsSent: inputs });
    await emu.close();
  });

  it('junk bodies on every POST route → 4xx {detail}', async () => {
    for (const route of POST_ROUTES()) {
      await fc.assert(
        fc.asyncProperty(
          junkBody,
          fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.x+json'),
          async (body, type) => {
            expect4xx(await send('POST', route, { body, headers: { 'Content-Type': type, 'X-API-Key': ALICE } }), `POST ${route}`);
          },
        ),
        { numRuns: RUNS },
      );
    }
  });

  it('random ids and raw percent-encodings in every path with an id → 4xx {detail}', async () => {
    for (const [method, path] of ID_ROUTES) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(junkId.map(encodeURIComponent), rawPercent), async (id) => {
          const body = method === 'POST' ? JSON.stringify({ event: 'reset-idle-timeout', meeting_bot_id: 'b' }) : undefined;
          expect4xx(await send(method, path(id), { body, headers: JSON_CT }), `${method} ${path(id)}`);
        }),
        { numRuns: RUNS / 2 },
      );
    }
  });

  it('random page / limit queries on both list endpoints: 200 exactly when valid, else 400 {detail}', async () => {
    const value = fc.option(
      fc.oneof(
        fc.integer({ min: -5, max: 1200 }).map(String),
        fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
        fc.constantFrom('1e3', '0x10', ' 7 ', '99999999999999999999', '', '1.0'),
      ),
      { nil: undefined },
    );
    for (const list of ['/liveai/rooms', '/liveai/sessions']) {
      await fc.assert(
        fc.asyncProperty(value, value, async (page, limit) => {
          const q = new URLSearchParams();
          if (page !== undefined) q.set('page', page);
          if (limit !== undefined) q.set('limit', limit);
          const a = await send('GET', `${list}?${q}`, { headers: { 'X-API-Key': ALICE } });
          if (pageOk(page, limit) && page !== '' && limit !== '') expect(a.status, `${list}?${q}`).toBe(200);
          else expect4xx(a, `${list}?${q}`);
        }),
        { numRuns: RUNS * 2 },
      );
    }
  });

  it('random X-API-Key headers → 401 {detail} on every authenticated route', async () => {
    const routes: [string, string][] = [
      ['GET', '/liveai/rooms'],
      ['POST', '/liveai/rooms'],
      ['GET', '/liveai/sessions'],
      ['POST', '/liveai/sessions'],
      ['GET', `/liveai/sessions/${sessionId}`],
      ['POST', `/liveai/sessions/${sessionId}/leave-meeting`],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), async ([method, path], key) => {
        fc.pre(!key.trim().startsWith('dev-key-'));
        const a = await send(method, path, {
          body: method === 'POST' ? '{}' : undefined,
          headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
        });
        expect4xx(a, `${method} ${path} key=${key}`);
        expect(a.status).toBe(401);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('random headers (content types, encodings, charsets) never produce a 5xx', async () => {
    const header = fc.record({
      'Content-Type': fc.oneof(
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
        fc.constantFrom(
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'multipart/form-data',
          'multipart/form-data; boundary=x',
          'application/json;;;',
        ),
      ),
      'Content-Encoding': fc.constantFrom('identity', 'gzip', 'deflate', 'br', 'x-unknown'),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ROUTES()), header, fc.string({ maxLength: 60 }), async (route, headers, body) => {
        expectNot5xx(
          await send('POST', route, { body, headers: { ...headers, 'X-API-Key': ALICE } }),
          `POST ${route} ${JSON.stringify(headers)}`,
        );
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('structured session-creation bodies: 400 exactly when the core schema rejects them, else 201/403/404', async () => {
    const url = fc.oneof(
      fc.constantFrom('ws://127.0.0.1:7880', 'wss://lk.example.test', 'https://daily.example.test/r', 'http://x', 'ftp://y', ''),
      fc.string({ maxLength: 10 }),
    );
    const props = fc.option(
      fc.record(
        { rtc_a_url: url, rtc_a_token: fc.string({ maxLength: 3 }), rtc_b_url: url, rtc_b_token: fc.string({ maxLength: 3 }) },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    );
    const body = fc.record(
      {
        agent_id: fc.constantFrom('agent-demo', 'agent-bob', 'ghost', ''),
        agent_image_url: url,
        transport_type: fc.constantFrom('rtc-a', 'rtc-b', 'websocket-rtc-a', 'websocket-rtc-b', 'other'),
        properties: props,
        rtc_a_properties: props,
        rtc_b_properties: props,
        model: fc.constantFrom('cartoon', 'default', ''),
        aspect_ratio: fc.constantFrom('2x3', '16x9'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const a = await send('POST', '/liveai/sessions', { body: JSON.stringify(b), headers: JSON_CT });
        if (!v.safeParse(CreateSessionRequestSchema, b).success) return expect4xx(a, JSON.stringify(b));
        const expected = b.agent_id === undefined ? 201 : b.agent_id === 'agent-demo' ? 201 : b.agent_id === 'agent-bob' ? 403 : 404;
        expect(a.status, JSON.stringify(b)).toBe(expected);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('structured control events: 200 exactly when the core schema accepts them, 413 for big inline images, else 400', async () => {
    const b64 = fc.oneof(
      fc.base64String({ maxLength: 40 }),
      fc.string({ maxLength: 20 }),
      fc.base64String({ maxLength: 20 }).map((s) => `data:image/png;base64,${s}`),
    );
    const event = fc.record(
      {
        event: fc.constantFrom('update-image', 'update-agent-prompt', 'update-idle-prompt', 'action', 'reset-idle-timeout', 'nope', ''),
        image_url: fc.oneof(
          fc.constantFrom('http://127.0.0.1:9/x.png', 'https://example.test/a.png', 'ftp://x'),
          fc.string({ maxLength: 8 }),
        ),
        image_base64: b64,
        agent_prompt: fc.string({ maxLength: 8 }),
        idle_prompt: fc.string({ maxLength: 8 }),
        action: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(event, async (e) => {
        const a = await send('POST', `/liveai/sessions/${wsSessionId}/control`, {
          body: JSON.stringify(e),
          headers: { 'Content-Type': 'application/json' },
        });
        const ok = v.safeParse(ControlEventSchema, e).success;
        if (!ok) return expect4xx(a, JSON.stringify(e));
        const big = typeof e.image_base64 === 'string' && e.event === 'update-image' && inlineImageTooLarge(e.image_base64);
        expect(a.status, JSON.stringify(e)).toBe(big ? 413 : 200);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('the emulator still answers normally after all of it', async () => {
    const a = await send('GET', `/liveai/sessions/${wsSessionId}`, { headers: { 'X-API-Key': ALICE } });
    expect(a.status).toBe(200);
    expect(inputs).toBeGreaterThan(3000);
  });
});
