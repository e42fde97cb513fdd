import { expect } from 'vitest';
import { ALICE, BOB, bodies } from '../helpers';
import { expectError, type Case } from './types';

const INVALID_KEY = /invalid api key/i;

export const authCases: Case[] = [
  {
    name: 'API key: 401 when X-API-Key is missing on GET /liveai/sessions, detail states an invalid API key',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions'), 401, INVALID_KEY),
  },
  {
    name: 'API key: 401 when X-API-Key is unknown on GET /liveai/rooms',
    run: async ({ h }) => expectError(await h.get('/liveai/rooms', 'not-a-key'), 401, INVALID_KEY),
  },
  {
    name: 'API key: 401 on POST /liveai/sessions with a wrong key, before the body is validated',
    run: async ({ h }) => expectError(await h.post('/liveai/sessions', { nonsense: true }, 'wrong'), 401, INVALID_KEY),
  },
  {
    name: 'API key: 401 on POST /liveai/rooms without a key',
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', { agent_id: 'agent-demo' }), 401, INVALID_KEY),
  },
  {
    name: 'API key: 401 on GET /liveai/sessions/{id} without a key',
    run: async ({ h }) => {
      const id = await h.session();
      expectError(await h.get(`/liveai/sessions/${id}`), 401, INVALID_KEY);
    },
  },
  {
    name: 'API key: 401 on an empty X-API-Key header',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions', ''), 401, INVALID_KEY),
  },
  {
    name: 'control auth: control accepts a request without X-API-Key',
    run: async ({ h }) => {
      const id = await h.session();
      const res = await h.control(id, { event: 'reset-idle-timeout' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    },
  },
  {
    name: "control auth: control accepts the owner's X-API-Key",
    run: async ({ h }) => {
      const id = await h.session();
      expect((await h.control(id, { event: 'reset-idle-timeout' }, ALICE)).status).toBe(200);
    },
  },
  {
    name: 'control auth: control with an unknown X-API-Key → 401 (emulator rule: a key that is sent must be valid)',
    run: async ({ h }) => {
      const id = await h.session();
      expectError(await h.control(id, { event: 'reset-idle-timeout' }, 'nope'), 401, INVALID_KEY);
    },
  },
  {
    name: "control auth: control with another account's X-API-Key → 403 (emulator rule)",
    run: async ({ h }) => {
      const id = await h.session();
      expectError(await h.control(id, { event: 'terminate' }, BOB), 403);
      expect(h.emu.state.session(id)?.session_status).not.toBe('COMPLETED');
    },
  },
  {
    name: "ownership: 403 creating a session with another account's agent",
    run: async ({ h }) => expectError(await h.post('/liveai/sessions', bodies.rtcA({ agent_id: 'agent-bob' }), ALICE), 403, /not owned/),
  },
  {
    name: "ownership: 403 reading another account's session",
    run: async ({ h }) => {
      const id = await h.session(bodies.rtcA({ agent_id: 'agent-bob' }), BOB);
      expectError(await h.get(`/liveai/sessions/${id}`, ALICE), 403, /does not belong/);
    },
  },
  {
    name: 'credentials: transport tokens (rtc_a_token) are never echoed in responses',
    run: async ({ h }) => {
      const res = await h.post(
        '/liveai/sessions',
        bodies.rtcA({ properties: { rtc_a_url: 'ws://127.0.0.1:7880', rtc_a_token: 'SECRET-TOKEN-123' } }),
        ALICE,
      );
      expect(res.status).toBe(201);
      const list = await h.get('/liveai/sessions', ALICE);
      const view = await h.raw('get', `/__emulator/sessions/${res.body.session_id}`);
      expect(JSON.stringify([res.body, list.body, view.body])).not.toContain('SECRET-TOKEN-123');
    },
  },
];
