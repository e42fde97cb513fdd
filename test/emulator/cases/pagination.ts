import { expect } from 'vitest';
import { ALICE, BOB, bodies, type Harness } from '../helpers';
import { expectError, type Case } from './types';

const MAX_OFFSET = /maximum offset of 1000/;
const ISO_WITH_TZ = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

async function sessions(h: Harness, n: number, body = bodies.rtcA(), key = ALICE): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await h.session(body, key));
  return ids;
}
async function rooms(h: Harness, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE)).body.session_id);
  return ids;
}

export const paginationCases: Case[] = [
  {
    name: 'list sessions: list sessions defaults to page 1 and limit 25',
    run: async ({ h }) => {
      const res = await h.get('/liveai/sessions', ALICE);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toMatchObject({ page: 1, limit: 25 });
    },
  },
  {
    name: 'list rooms: list rooms defaults to page 1 and limit 25',
    run: async ({ h }) => {
      const res = await h.get('/liveai/rooms', ALICE);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toMatchObject({ page: 1, limit: 25 });
      expect(Array.isArray(res.body.rooms)).toBe(true);
    },
  },
  {
    name: 'limits: limit 100 is accepted',
    run: async ({ h }) => expect((await h.get('/liveai/sessions?limit=100', ALICE)).status).toBe(200),
  },
  { name: 'limits: limit 1 is accepted', run: async ({ h }) => expect((await h.get('/liveai/rooms?limit=1', ALICE)).status).toBe(200) },
  {
    name: 'limits: 400 when limit is 101',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions?limit=101', ALICE), 400, /limit/),
  },
  { name: 'limits: 400 when limit is 0', run: async ({ h }) => expectError(await h.get('/liveai/rooms?limit=0', ALICE), 400, /limit/) },
  { name: 'limits: 400 when page is 0', run: async ({ h }) => expectError(await h.get('/liveai/sessions?page=0', ALICE), 400, /page/) },
  {
    name: 'limits: 400 when page is negative',
    run: async ({ h }) => expectError(await h.get('/liveai/rooms?page=-3', ALICE), 400, /page/),
  },
  {
    name: 'limits: 400 when page is not a number',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions?page=abc', ALICE), 400, /page/),
  },
  {
    name: 'limits: 400 when limit is not an integer',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions?limit=1.5', ALICE), 400, /limit/),
  },
  {
    name: 'limits: 400 when page is empty (page=)',
    run: async ({ h }) => expectError(await h.get('/liveai/rooms?page=&limit=5', ALICE), 400, /page/),
  },
  {
    name: 'limits: 400 when page is repeated',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions?page=1&page=2', ALICE), 400, /page/),
  },
  {
    name: 'list rooms: offset (page-1)*limit of exactly 1000 is accepted (page 11, limit 100)',
    run: async ({ h }) => {
      const res = await h.get('/liveai/sessions?page=11&limit=100', ALICE);
      expect(res.status).toBe(200);
      expect(res.body.sessions).toEqual([]);
    },
  },
  {
    name: 'list sessions: 400 when the offset is 1100 (page 12, limit 100), detail states a maximum offset of 1000',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions?page=12&limit=100', ALICE), 400, MAX_OFFSET),
  },
  {
    name: 'list rooms: 400 on rooms when the offset is 1025 (page 42, default limit 25), detail states a maximum offset of 1000',
    run: async ({ h }) => expectError(await h.get('/liveai/rooms?page=42', ALICE), 400, MAX_OFFSET),
  },
  {
    name: 'fields: pagination object: page, limit, total, total_pages, has_more',
    run: async ({ fresh }) => {
      const h = await fresh();
      await sessions(h, 5);
      const p1 = await h.get('/liveai/sessions?limit=2', ALICE);
      expect(p1.body.pagination).toEqual({ page: 1, limit: 2, total: 5, total_pages: 3, has_more: true });
      expect(p1.body.sessions).toHaveLength(2);
      const p3 = await h.get('/liveai/sessions?limit=2&page=3', ALICE);
      expect(p3.body.pagination).toEqual({ page: 3, limit: 2, total: 5, total_pages: 3, has_more: false });
      expect(p3.body.sessions).toHaveLength(1);
    },
  },
  {
    name: 'list sessions: a page past the end is empty with has_more false',
    run: async ({ fresh }) => {
      const h = await fresh();
      await sessions(h, 2);
      const res = await h.get('/liveai/sessions?page=5&limit=10', ALICE);
      expect(res.body).toEqual({ sessions: [], pagination: { page: 5, limit: 10, total: 2, total_pages: 1, has_more: false } });
    },
  },
  {
    name: 'list sessions: sessions are listed newest first',
    run: async ({ fresh }) => {
      const h = await fresh();
      const ids = await sessions(h, 4);
      const res = await h.get('/liveai/sessions', ALICE);
      expect(res.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([...ids].reverse());
    },
  },
  {
    name: 'list rooms: rooms are listed newest first, and only hosted rooms',
    run: async ({ fresh }) => {
      const h = await fresh();
      const a = await rooms(h, 1);
      await sessions(h, 1);
      const b = await rooms(h, 2);
      const res = await h.get('/liveai/rooms', ALICE);
      expect(res.body.rooms.map((r: { session_id: string }) => r.session_id)).toEqual([...b.reverse(), ...a]);
    },
  },
  {
    name: 'list sessions: sessions are listed per authenticated account',
    run: async ({ fresh }) => {
      const h = await fresh();
      await sessions(h, 2);
      const bob = await sessions(h, 1, bodies.rtcA({ agent_id: 'agent-bob' }), BOB);
      const res = await h.get('/liveai/sessions', BOB);
      expect(res.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(bob);
    },
  },
  {
    name: 'fields: session list item: session_id, created_at ISO 8601 with timezone, session_status, credits_used, provider',
    run: async ({ fresh }) => {
      const h = await fresh({ queueMs: 60_000 });
      const [id] = await sessions(h, 1);
      const item = (await h.get('/liveai/sessions', ALICE)).body.sessions[0];
      expect(item).toMatchObject({ session_id: id, session_status: 'QUEUED', credits_used: null, provider: 'RTC_A' });
      expect(item.created_at).toMatch(ISO_WITH_TZ);
    },
  },
  {
    name: 'fields: provider is RTC_A for rtc-a / websocket-rtc-a and RTC_B for rtc-b / websocket-rtc-b',
    run: async ({ fresh }) => {
      const h = await fresh();
      for (const b of [bodies.rtcA(), bodies.wsA(), bodies.rtcB(), bodies.wsB()]) await h.session(b);
      const res = await h.get('/liveai/sessions', ALICE);
      expect(res.body.sessions.map((s: { provider: string }) => s.provider)).toEqual(['RTC_B', 'RTC_B', 'RTC_A', 'RTC_A']);
    },
  },
  {
    name: 'fields: room list item: agent_id, session_id, created_at with timezone, session_status, credits_used',
    run: async ({ fresh }) => {
      const h = await fresh({ queueMs: 60_000 });
      const [id] = await rooms(h, 1);
      const item = (await h.get('/liveai/rooms', ALICE)).body.rooms[0];
      expect(item).toMatchObject({ agent_id: 'agent-demo', session_id: id, session_status: 'QUEUED', credits_used: null });
      expect(item.created_at).toMatch(ISO_WITH_TZ);
    },
  },
];
