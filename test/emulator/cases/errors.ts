import request from 'supertest';
import { expect } from 'vitest';
import { ALICE, BOB } from '../helpers';
import { expectError, type Case } from './types';

export const errorCases: Case[] = [
  {
    name: 'errors: an unknown path under /liveai → 404 {detail}',
    run: async ({ h }) => expectError(await h.get('/liveai/agents', ALICE), 404, /no route/),
  },
  {
    name: 'errors: a known path with another method → 405 {detail} with Allow (emulator rule)',
    run: async ({ h }) => {
      const res = await h.raw('delete', '/liveai/sessions').set('X-API-Key', ALICE);
      expectError(res, 405, /not allowed/);
      expect(res.headers.allow).toBe('GET, POST');
    },
  },
  {
    name: 'errors: failRate 1 → 500 {detail} on the list, create and get endpoints',
    run: async ({ fresh }) => {
      const h = await fresh({ faults: { failRate: 1 } });
      expectError(await h.get('/liveai/sessions', ALICE), 500, /injected fault/);
      expectError(await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE), 500, /injected fault/);
      expectError(await h.get('/liveai/sessions/x', ALICE), 500, /injected fault/);
    },
  },
  {
    name: 'errors: failRate never turns control or leave-meeting into 500',
    run: async ({ fresh }) => {
      const h = await fresh();
      const id = await h.session();
      h.emu.state.setFaults({ failRate: 1 });
      expect((await h.control(id, { event: 'reset-idle-timeout' })).status).toBe(200);
      expect((await h.post(`/liveai/sessions/${id}/leave-meeting`, { meeting_bot_id: 'b' }, ALICE)).status).toBe(409);
    },
  },
  {
    name: 'errors: dropRate 1 destroys the connection without an answer; GET /__emulator/faults reads it back',
    run: async ({ fresh }) => {
      const h = await fresh();
      await request(h.url).post('/__emulator/faults').send({ dropRate: 1 }).expect(200);
      expect((await request(h.url).get('/__emulator/faults')).body).toEqual({
        latencyMs: 0,
        failRate: 0,
        dropRate: 1,
        nextSessionOutcome: null,
      });
      await expect(fetch(`${h.url}/liveai/sessions`, { headers: { 'X-API-Key': ALICE } })).rejects.toThrow();
    },
  },
  {
    name: 'errors: invalid fault settings → 400 {detail}',
    run: async ({ h }) => expectError(await request(h.url).post('/__emulator/faults').send({ failRate: 2 }), 400, /failRate/),
  },
  {
    name: 'errors: latencyMs delays answers but they still arrive intact',
    run: async ({ fresh }) => {
      const h = await fresh({ faults: { latencyMs: 50 } });
      expect((await h.get('/liveai/sessions', BOB)).status).toBe(200);
    },
  },
  {
    name: 'errors: a JSON body above the 8 MB parser limit → 413 {detail}',
    run: async ({ h }) =>
      expectError(
        await h
          .raw('post', '/liveai/rooms')
          .set('X-API-Key', ALICE)
          .type('json')
          .send(`{"agent_id":"${'a'.repeat(9 * 1024 * 1024)}"}`),
        413,
        /limit/,
      ),
  },
  {
    name: 'errors: a malformed percent-encoded session id → 404 {detail}, never 500',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions/%E0%A4%A', ALICE), 404, /malformed percent-encoding/),
  },
];
