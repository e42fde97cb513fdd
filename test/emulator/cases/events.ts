import * as v from 'valibot';
import request from 'supertest';
import { expect } from 'vitest';
import { AvatarEventSchema } from '../../../src/core/schemas';
import { ALICE } from '../helpers';
import { expectError, type Case } from './types';

const room = async (h: { post: (p: string, b: unknown, k: string) => PromiseLike<{ body: { session_id: string } }> }) =>
  (await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE)).body.session_id;

export const eventCases: Case[] = [
  {
    name: 'events: chat-msg: user_transcription with the message, then agent_transcription with a reply',
    run: async ({ h }) => {
      const id = await room(h);
      await h.status(id, 'ACTIVE');
      await request(h.url)
        .post(`/__emulator/sessions/${id}/app-message`)
        .send({ event: 'chat-msg', message: 'Tell me about the weather', name: 'Ann' })
        .expect(200);
      const ev = h.events(id).filter((e) => e.type.endsWith('_transcription'));
      expect(ev[0]).toEqual({ type: 'user_transcription', transcription: 'Tell me about the weather' });
      expect(ev[1]?.type).toBe('agent_transcription');
      // The practice avatar's reply addresses the sender and says what it heard.
      expect(String(ev[1]?.transcription)).toContain('Ann');
      expect(String(ev[1]?.transcription)).toContain('Tell me about the weather');
    },
  },
  {
    name: 'events: force-end: the agent leaves, the session ends COMPLETED and billing stops',
    run: async ({ h }) => {
      const id = await room(h);
      await h.status(id, 'ACTIVE');
      await request(h.url).post(`/__emulator/sessions/${id}/app-message`).send({ event: 'force-end' }).expect(200);
      const first = await h.get(`/liveai/sessions/${id}`, ALICE);
      expect(first.body.session_status).toBe('COMPLETED');
      const list = await h.get('/liveai/rooms', ALICE);
      const item = list.body.rooms.find((r: { session_id: string }) => r.session_id === id);
      expect(item.credits_used).toBe(first.body.cost);
    },
  },
  {
    name: 'events: an invalid app message → 400 (test route)',
    run: async ({ h }) =>
      expectError(
        await request(h.url)
          .post(`/__emulator/sessions/${await room(h)}/app-message`)
          .send({ event: 'chat-msg' }),
        400,
      ),
  },
  {
    name: 'events: chat-msg before the agent is ACTIVE → 409 (test route)',
    run: async ({ fresh }) => {
      const h = await fresh({ queueMs: 60_000 });
      expectError(
        await request(h.url)
          .post(`/__emulator/sessions/${await room(h)}/app-message`)
          .send({ event: 'chat-msg', message: 'hi', name: '' }),
        409,
        /ACTIVE/,
      );
    },
  },
  {
    name: 'events: every emitted event is a valid spec event with a type field',
    run: async ({ h }) => {
      const id = await room(h);
      await h.status(id, 'ACTIVE');
      await request(h.url).post(`/__emulator/sessions/${id}/app-message`).send({ event: 'chat-msg', message: 'x', name: 'y' });
      await h.control(id, { event: 'update-image', image_url: `${h.url}/nope.png` });
      await h.event(id, 'image_change_error');
      for (const e of h.events(id)) expect(v.safeParse(AvatarEventSchema, e).success, JSON.stringify(e)).toBe(true);
      expect(h.events(id).length).toBeGreaterThanOrEqual(5);
    },
  },
];
