import * as v from 'valibot';
import fc from 'fast-check';
import {
  CONTROL_EVENT_NAMES,
  ControlEventSchema,
  CreateRoomRequestSchema,
  LeaveMeetingRequestSchema,
  PaginationQuerySchema,
} from '../../src/core/schemas';
import { ProxySessionFieldsSchema, proxySessionProblems } from '../../src/core/schemas/proxy';
import { MAX_PAGINATION_OFFSET } from '../../src/core/constants';

/** Malformed inputs for each proxy route (fast-check). Every value here must be refused with a 4xx before the service is called. */

const weird = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(''),
  fc.constant('   '),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Any JSON value, biased towards objects with the route's field names. */
const jsonish = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.jsonValue() },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** A raw text body sent as application/json: mostly broken JSON. */
export const brokenJson = fc.oneof(
  fc.string(),
  fc.constantFrom('{', '{"a":', '[1,', 'nul', '{"agent_id":"agent-demo"', '\u0000', '{"event":"terminate"}}', '"\\uZZZZ"'),
);

export const roomBodies = jsonish({ agent_id: fc.oneof(weird, fc.constant('agent-demo')), extra: weird }).filter(
  (b) => !v.safeParse(CreateRoomRequestSchema, b).success,
);

const url = fc.oneof(fc.webUrl(), fc.string(), fc.constant('ftp://x.test/a.png'), fc.constant('wss://lk.test'));
const props = fc.oneof(
  weird,
  fc.record({ rtc_b_url: url, rtc_b_token: fc.oneof(weird, fc.constant('t')) }, { requiredKeys: [] }),
  fc.record({ rtc_a_url: url, rtc_a_token: weird }, { requiredKeys: [] }),
);
/** Session creation bodies that break a field or a cross-field rule (the service's field rules and the proxy's). */
export const sessionBodies = jsonish({
  agent_id: fc.oneof(weird, fc.constant('agent-demo')),
  agent_image_url: url,
  agent_prompt: weird,
  transport_type: fc.oneof(fc.constantFrom('rtc-a', 'rtc-b', 'websocket-rtc-a', 'websocket-rtc-b'), weird),
  properties: props,
  rtc_b_properties: props,
  model: fc.oneof(fc.constant('cartoon'), weird),
  aspect_ratio: fc.oneof(fc.constantFrom('2x3', '16x9'), weird),
}).filter((b) => !isValidSession(b));

export function isValidSession(b: unknown): boolean {
  const r = v.safeParse(ProxySessionFieldsSchema, b);
  return r.success && proxySessionProblems(r.output).length === 0;
}

const base64ish = fc.oneof(
  fc.base64String({ maxLength: 40 }),
  fc.string(),
  fc.constant('data:image/png;base64,'),
  fc.constant('data:image/png;base64,AAA'),
);
/** Control bodies that are not a valid control event. */
export const controlBodies = jsonish({
  event: fc.oneof(
    fc.constantFrom(...CONTROL_EVENT_NAMES),
    fc.constantFrom('valueOf', 'constructor', '__proto__', 'toString', 'hasOwnProperty'),
    weird,
  ),
  image_url: url,
  image_base64: fc.oneof(base64ish, weird),
  agent_prompt: weird,
  idle_prompt: weird,
  action: weird,
}).filter((b) => !v.safeParse(ControlEventSchema, b).success);

export const leaveBodies = jsonish({ meeting_bot_id: weird }).filter((b) => !v.safeParse(LeaveMeetingRequestSchema, b).success);

/** Query strings for the list routes that break their bounds: `page` ≥ 1, `limit` 1–100, offset at most 1000. */
export const badQueries = fc
  .record(
    {
      page: fc.oneof(fc.integer({ min: -5, max: 2000 }).map(String), fc.string(), fc.constantFrom('1.5', '1e3', '0x10', ' 2', '')),
      limit: fc.oneof(fc.integer({ min: -5, max: 500 }).map(String), fc.string(), fc.constantFrom('25.0', 'NaN', '')),
      repeat: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .filter((q) => {
    if (q.repeat) return true; // page=..&page=.. is an array: always invalid
    const r = v.safeParse(PaginationQuerySchema, { page: q.page, limit: q.limit });
    return !r.success || (r.output.page - 1) * r.output.limit > MAX_PAGINATION_OFFSET;
  })
  .map((q) => {
    const p = new URLSearchParams();
    if (q.page !== undefined) p.append('page', q.page);
    if (q.limit !== undefined) p.append('limit', q.limit);
    if (q.repeat) {
      p.append('page', '1');
      p.append('page', '2');
    }
    if (!p.size) p.append('page', '0');
    return p.toString();
  });

/** Path segments for `:id`: encoded arbitrary strings, or raw segments with odd percent escapes. */
export const ids = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9%._~!$&'()*+,;=:@-]{1,40}$/),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '.', '%00', '%2F', 'a'.repeat(300), '%0a'),
);

const headerName = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,20}$/)
  .filter(
    (n) =>
      ![
        'content-length',
        'transfer-encoding',
        'host',
        'connection',
        'content-type',
        'expect',
        'upgrade',
        'x-admin',
        'keep-alive',
        'te',
        'trailer',
        'content-encoding',
      ].includes(n),
  );
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,60}$/).map((s) => s.trim());
/** Extra request headers, including odd `x-request-id`s and `authorization` values. */
export const headers = fc
  .record(
    {
      extra: fc.dictionary(headerName, headerValue, { maxKeys: 4 }),
      requestId: headerValue,
      authorization: fc.oneof(
        headerValue,
        headerValue.map((v) => `Bearer ${v}`),
        fc.constant('Bearer'),
        fc.constant('bearer a.b.c'),
      ),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, requestId, authorization }) => ({
    ...extra,
    ...(requestId !== undefined ? { 'x-request-id': requestId } : {}),
    ...(authorization !== undefined ? { authorization } : {}),
  }));
