import request from 'supertest';
import { expect } from 'vitest';
import { ALICE, bodies } from '../helpers';
import { expectError, type Case } from './types';

export const stateCases: Case[] = [
  {
    name: 'get session: 404 when the session does not exist',
    run: async ({ h }) => expectError(await h.get('/liveai/sessions/does-not-exist', ALICE), 404, /not found/),
  },
  {
    name: 'states: a new session is QUEUED, then ACTIVE after the queue time',
    run: async ({ h }) => {
      const id = await h.session();
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body).toEqual({ session_status: 'QUEUED' });
      await h.status(id, 'ACTIVE');
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body).toEqual({ session_status: 'ACTIVE' });
    },
  },
  {
    name: 'fields: cost is absent while QUEUED and ACTIVE',
    run: async ({ h }) => {
      const id = await h.activeSession();
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body.cost).toBeUndefined();
    },
  },
  {
    name: 'states: terminate → COMPLETED with a cost in credits',
    run: async ({ h }) => {
      const id = await h.activeSession();
      await h.control(id, { event: 'terminate' });
      const res = await h.get(`/liveai/sessions/${id}`, ALICE);
      expect(res.body.session_status).toBe('COMPLETED');
      expect(typeof res.body.cost).toBe('number');
    },
  },
  {
    name: 'states: cost is ACTIVE time × creditsPerMinute, pro rata, 2 decimals, and is taken from the balance',
    run: async ({ fresh }) => {
      const h = await fresh({ creditsPerMinute: 6000 });
      const id = await h.activeSession();
      await h.event(id, 'bot_ready');
      await h.control(id, { event: 'terminate' });
      const view = h.emu.state.session(id)!;
      const ms = Date.parse(view.ended_at!) - Date.parse(view.active_since!);
      const cost = (await h.get(`/liveai/sessions/${id}`, ALICE)).body.cost as number;
      expect(cost).toBeCloseTo(Math.round(ms * 10) / 100, 1);
      expect(Math.round(cost * 100) / 100).toBe(cost);
      expect(h.emu.state.credits(ALICE)).toBeCloseTo(100 - cost, 5);
    },
  },
  {
    name: 'states: terminate while QUEUED → COMPLETED with cost 0',
    run: async ({ fresh }) => {
      const h = await fresh({ queueMs: 60_000 });
      const id = await h.session();
      await h.control(id, { event: 'terminate' });
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body).toEqual({ session_status: 'COMPLETED', cost: 0 });
    },
  },
  {
    name: 'states: ACTIVE → TIMED_OUT (test route) has no cost and charges nothing',
    run: async ({ fresh }) => {
      const h = await fresh();
      const id = await h.activeSession();
      expect((await request(h.url).post(`/__emulator/sessions/${id}/timeout`)).body).toEqual({ session_status: 'TIMED_OUT' });
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body).toEqual({ session_status: 'TIMED_OUT' });
      expect(h.emu.state.credits(ALICE)).toBe(100);
    },
  },
  {
    name: 'states: ACTIVE → FAILED (test route) has no cost',
    run: async ({ h }) => {
      const id = await h.activeSession();
      await request(h.url).post(`/__emulator/sessions/${id}/fail`).expect(200);
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body).toEqual({ session_status: 'FAILED' });
    },
  },
  {
    name: 'states: QUEUED → FAILED with the nextSessionOutcome fault, for the next session only',
    run: async ({ fresh }) => {
      const h = await fresh();
      await request(h.url).post('/__emulator/faults').send({ nextSessionOutcome: 'fail' }).expect(200);
      const id = await h.session();
      await h.status(id, 'FAILED');
      expect(h.types(id)).not.toContain('bot_ready');
      await h.activeSession();
    },
  },
  {
    name: 'states: QUEUED → TIMED_OUT with the nextSessionOutcome fault',
    run: async ({ fresh }) => {
      const h = await fresh({ faults: { nextSessionOutcome: 'timeout' } });
      const id = await h.session();
      await h.status(id, 'TIMED_OUT');
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body).toEqual({ session_status: 'TIMED_OUT' });
    },
  },
  {
    name: 'fields: credits_used is null while QUEUED and equals the cost once COMPLETED',
    run: async ({ fresh }) => {
      const h = await fresh({ queueMs: 200 });
      const id = await h.session();
      expect((await h.get('/liveai/sessions', ALICE)).body.sessions[0].credits_used).toBeNull();
      await h.status(id, 'ACTIVE');
      await h.control(id, { event: 'terminate' });
      const cost = (await h.get(`/liveai/sessions/${id}`, ALICE)).body.cost;
      expect((await h.get('/liveai/sessions', ALICE)).body.sessions[0].credits_used).toBe(cost);
    },
  },
  {
    name: 'events: bot_ready is emitted when the session becomes ACTIVE',
    run: async ({ h }) => {
      const id = await h.activeSession(bodies.wsB());
      expect(h.types(id)[0]).toBe('bot_ready');
    },
  },
  {
    name: 'events: idle timeout: without activity the session emits idle_timeout and ends COMPLETED (billed)',
    run: async ({ fresh }) => {
      const h = await fresh({ idleTimeoutS: 0.2 });
      const id = await h.activeSession();
      await h.event(id, 'idle_timeout');
      await h.status(id, 'COMPLETED');
      expect(h.types(id)).toEqual(['bot_ready', 'idle_timeout']);
      expect(typeof (await h.get(`/liveai/sessions/${id}`, ALICE)).body.cost).toBe('number');
    },
  },
  {
    name: 'control: reset-idle-timeout restarts the idle clock',
    run: async ({ fresh }) => {
      const h = await fresh({ idleTimeoutS: 0.6 });
      const id = await h.activeSession();
      let last = 0;
      for (let i = 0; i < 7; i++) {
        expect((await h.control(id, { event: 'reset-idle-timeout' })).status).toBe(200);
        last = Date.now();
        await new Promise((r) => setTimeout(r, 150)); // pacing of the user's keep-alives, not synchronisation
      }
      expect(h.emu.state.session(id)?.session_status).toBe('ACTIVE');
      await h.event(id, 'idle_timeout');
      expect(Date.parse(h.emu.state.session(id)!.ended_at!)).toBeGreaterThanOrEqual(last + 550);
    },
  },
];
