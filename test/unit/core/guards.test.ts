import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readAvatarEventMessage } from '../../../src/core/events/read';
import {
  avatarEventGuard,
  chatMessageGuard,
  clientSessionGuard,
  clientTokenGuard,
  errorBodyGuard,
  sessionStatusGuard,
  type Guard,
} from '../../../src/core/schemas/guards';
import * as v from '../../../src/core/validation';

/**
 * The call path checks what it receives with small guards and loads zod only when a guard says no. The guards must
 * agree with the zod schemas (the single source of truth): on every value, the guard accepts exactly when zod does,
 * and returns what zod returns. Values are drawn valid and near-valid (one field off, fields missing or extra).
 */
const seen = { accepted: 0, rejected: 0 };
function agrees<T>(guard: Guard<T>, schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, value: unknown) {
  const z = schema.safeParse(value);
  const g = guard(value);
  seen[z.success ? 'accepted' : 'rejected']++;
  expect({ accepted: g !== undefined, value }).toEqual({ accepted: z.success, value });
  if (z.success) expect(g).toStrictEqual(z.data);
}

const junk = fc.oneof(
  fc.constantFrom(null, undefined, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, false, '', ' ', '\t', [], {}),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);
// Each field arbitrary is mostly valid with a tail of edge cases, so records with many fields (the session handle has
// nine) are still often wholly valid and both sides of every schema get exercised on every seed.
const urls = fc.oneof(
  { weight: 3, arbitrary: fc.webUrl() },
  { weight: 3, arbitrary: fc.webUrl().map((u) => u.replace(/^https?/, 'wss')) },
  fc.constantFrom(
    'wss://lk.example.test',
    ' wss://lk.example.test ',
    'https://exa\nmple.com/a\tb',
    'http:example.com',
    'not a url',
    'https://',
    'ws://127.0.0.1:7880',
    'mailto:a@b.c',
    '',
  ),
);
const dates = fc.oneof(
  { weight: 6, arbitrary: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()) },
  fc.constantFrom(
    '2026-11-23T14:48:50Z',
    '2026-11-23T14:48:50.123+01:00',
    '2026-11-23T14:48:50-23:59',
    '2026-11-23T14:48Z',
    '2026-02-29T00:00:00Z',
    '2024-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-23T24:00:00Z',
    '2026-11-23 14:48:50Z',
    '2026-11-23T14:48:50',
    '2026-11-23T14:48:50+0100',
  ),
);
const text = fc.oneof({ weight: 6, arbitrary: fc.string() }, fc.constantFrom('', ' ', '  hi  ', '\n', 'x'));
/** A value for one field: mostly `valid`, sometimes anything else. */
const field = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: junk });
/** Objects with these fields, each possibly missing, plus possibly extra keys. */
const record = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, field(a)])), { requiredKeys: [] }),
      fc.record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, a])) as Record<string, fc.Arbitrary<unknown>>),
      fc.dictionary(fc.constantFrom('extra', 'x', 'type', 'cost', 'detail'), junk, { maxKeys: 2 }),
      fc.nat(3),
    )
    .map(([some, all, extra, mode]) => (mode === 0 ? all : mode === 1 ? { ...all, ...extra } : mode === 2 ? some : { ...some, ...extra }));
const values = (arb: fc.Arbitrary<unknown>) => fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: junk });
const RUNS = { numRuns: 400 };

describe('call-path guards agree with the zod schemas', () => {
  beforeEach(() => Object.assign(seen, { accepted: 0, rejected: 0 }));
  // Both sides of every schema were exercised: many values valid, many not.
  afterEach(() => expect(Math.min(seen.accepted, seen.rejected)).toBeGreaterThan(RUNS.numRuns / 20));

  it('service events (all ten types, extra fields kept)', () => {
    const types = fc.oneof(fc.constantFrom(...v.AVATAR_EVENT_TYPES), fc.constantFrom('chat-msg', 'BOT_READY', 'toString', ''));
    const event = record({ type: types, transcription: text, error: junk, fatal: fc.boolean() });
    fc.assert(
      fc.property(values(event), (e) => agrees(avatarEventGuard, v.AvatarEventSchema, e)),
      RUNS,
    );
  });

  it('the session handle of a create call or an attach', () => {
    const session = record({
      session_id: text,
      client_token: text,
      expires_at: dates,
      session_expires_at: dates,
      transport: fc.oneof(fc.constantFrom(...v.TransportTypeSchema.options), fc.constantFrom('rtc-c', 'RTC_A')),
      room_url: urls,
      token: text,
      image_url: urls,
      websocket_address: urls,
    });
    fc.assert(
      fc.property(values(session), (s) => agrees(clientSessionGuard, v.ClientSessionSchema, s)),
      RUNS,
    );
  });

  it('status answers, renewed tokens and error bodies', () => {
    const status = record({
      session_status: fc.oneof(fc.constantFrom(...v.SessionStatusSchema.options), fc.constantFrom('active', 'ENDED')),
      cost: fc.oneof(fc.double(), fc.integer()),
    });
    fc.assert(
      fc.property(values(status), (s) => agrees(sessionStatusGuard, v.SessionStatusResponseSchema, s)),
      RUNS,
    );
    fc.assert(
      fc.property(values(record({ client_token: text, expires_at: dates })), (t) => agrees(clientTokenGuard, v.ClientTokenSchema, t)),
      RUNS,
    );
    fc.assert(
      fc.property(values(record({ detail: text })), (b) => agrees(errorBodyGuard, v.ErrorBodySchema, b)),
      RUNS,
    );
  });

  it('chat messages (trimmed, not empty)', () => {
    const chat = record({ event: fc.constantFrom('chat-msg', 'force-end'), message: text, name: text });
    fc.assert(
      fc.property(values(chat), (m) => agrees(chatMessageGuard, v.ChatMessageSchema, m)),
      RUNS,
    );
  });
});

describe('reading transport messages without zod on the normal path', () => {
  it('a well-formed event is delivered at once; anything else gets zod’s exact invalid_event error', async () => {
    const got: unknown[] = [];
    expect(readAvatarEventMessage('{"type":"agent_transcription","transcription":"hi","x":1}', (p) => got.push(p))).toBe('event');
    expect(got).toEqual([{ ok: true, event: { type: 'agent_transcription', transcription: 'hi', x: 1 } }]);
    expect(readAvatarEventMessage('{"type":', (p) => got.push(p))).toBe('invalidMessage');
    expect(readAvatarEventMessage({ type: 'daily_error', error: 'x' }, (p) => got.push(p))).toBe('checking');
    await vi.waitFor(() => expect(got).toHaveLength(3));
    expect(got[2]).toEqual(v.parseAvatarEventMessage({ type: 'daily_error', error: 'x' }));
    expect(got[2]).toMatchObject({ ok: false, error: { code: 'invalid_event', detail: expect.stringContaining('fatal') } });
  });
});
