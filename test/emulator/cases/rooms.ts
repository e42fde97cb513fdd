import sharp from 'sharp';
import request from 'supertest';
import { expect } from 'vitest';
import { ALICE, BOB, BROKE, LK_URL, jwtPayload } from '../helpers';
import { expectError, type Case } from './types';

export const roomCases: Case[] = [
  {
    name: 'create room: 201 Room with room_url (the LiveKit URL), token, image_url and session_id',
    run: async ({ h }) => {
      const res = await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['image_url', 'room_url', 'session_id', 'token']);
      expect(res.body.room_url).toBe(LK_URL);
      expect(typeof res.body.session_id).toBe('string');
    },
  },
  {
    name: 'create room: the room token is a LiveKit viewer token for a liveai-room-<random> room that does not show the session id',
    run: async ({ h }) => {
      const res = await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE);
      const jwt = jwtPayload(res.body.token);
      expect(jwt.sub).toMatch(/^user-[0-9a-f]+$/);
      expect(jwt.video).toMatchObject({
        room: expect.stringMatching(/^liveai-room-[0-9a-f]{16}$/),
        roomJoin: true,
        canPublish: true,
        canSubscribe: true,
        canPublishData: true,
      });
      // The token is the browser's: the session id (which the control endpoint accepts from anyone) is not in it.
      expect(JSON.stringify(jwt)).not.toContain(res.body.session_id);
    },
  },
  {
    name: 'create room: image_url is absolute and serves the agent image (368x560 PNG)',
    run: async ({ h }) => {
      const res = await h.post('/liveai/rooms', { agent_id: 'agent-cartoon' }, ALICE);
      expect(res.body.image_url).toBe(`${h.url}/liveai/assets/agent-cartoon.png`);
      const img = await request(res.body.image_url).get('').buffer(true);
      expect(img.status).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(await sharp(img.body as Buffer).metadata()).toMatchObject({ width: 368, height: 560 });
    },
  },
  {
    name: 'create room: 400 when agent_id is missing',
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', {}, ALICE), 400, /agent_id/),
  },
  {
    name: 'create room: 400 when agent_id is not a string',
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', { agent_id: 42 }, ALICE), 400, /agent_id/),
  },
  {
    name: 'create room: 400 when agent_id is empty',
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', { agent_id: '' }, ALICE), 400, /agent_id/),
  },
  {
    name: 'create room: 404 when the agent does not exist',
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', { agent_id: 'agent-nobody' }, ALICE), 404, /not found/),
  },
  {
    name: "create room: 404 for another account's agent (emulator rule: rooms only for own agents)",
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, BOB), 404, /not found/),
  },
  {
    name: 'create room: 402 when the agent owner has no credits',
    run: async ({ h }) => expectError(await h.post('/liveai/rooms', { agent_id: 'agent-broke' }, BROKE), 402, /insufficient funds/),
  },
  {
    name: 'create room: malformed JSON → 400 {detail}, never 500',
    run: async ({ h }) =>
      expectError(
        await h.raw('post', '/liveai/rooms').set('X-API-Key', ALICE).type('json').send('{"agent_id": "agent-demo"'),
        400,
        /malformed JSON/,
      ),
  },
  {
    name: 'create room: the room session goes QUEUED → ACTIVE and is readable with GET /liveai/sessions/{id}',
    run: async ({ h }) => {
      const { body } = await h.post('/liveai/rooms', { agent_id: 'agent-demo' }, ALICE);
      await h.status(body.session_id, 'ACTIVE');
      expect((await h.get(`/liveai/sessions/${body.session_id}`, ALICE)).body).toEqual({ session_status: 'ACTIVE' });
    },
  },
];
