import request from 'supertest';
import { expect } from 'vitest';
import { LEAVE_MEETING_DETAILS as D } from '../../../src/shared/wire-errors';
import { ALICE, BOB, bodies, type Harness } from '../helpers';
import { expectError, type Case } from './types';

async function withBot(h: Harness, outcome?: string, body: object = bodies.rtcA()): Promise<string> {
  const id = await h.session(body);
  await request(h.url)
    .post(`/__emulator/sessions/${id}/meeting-bots`)
    .send({ meeting_bot_id: 'bot-1', ...(outcome ? { outcome } : {}) })
    .expect(201);
  return id;
}
const leave = (h: Harness, id: string, body: unknown, key: string | undefined = ALICE) =>
  h.post(`/liveai/sessions/${id}/leave-meeting`, body, key);

export const leaveMeetingCases: Case[] = [
  {
    name: 'leave-meeting: 200 {status: "left"} for a meeting bot of an rtc-a session; the session then ends COMPLETED',
    run: async ({ h }) => {
      const id = await withBot(h);
      const res = await leave(h, id, { meeting_bot_id: 'bot-1' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'left' });
      expect((await h.get(`/liveai/sessions/${id}`, ALICE)).body.session_status).toBe('COMPLETED');
    },
  },
  {
    name: 'errors: leave-meeting 400 "Missing meeting_bot_id"',
    run: async ({ h }) => expectError(await leave(h, await withBot(h), {}), 400, D.missing),
  },
  {
    name: 'errors: leave-meeting 401 "Invalid API key"',
    run: async ({ h }) => expectError(await leave(h, await withBot(h), { meeting_bot_id: 'bot-1' }, 'bad'), 401, D.invalidKey),
  },
  {
    name: 'leave-meeting: leave-meeting works only for rtc-a sessions → 400 for websocket-rtc-a',
    run: async ({ h }) =>
      expectError(
        await leave(h, await withBot(h, undefined, bodies.wsA()), { meeting_bot_id: 'bot-1' }),
        400,
        /only for sessions on the rtc-a transport/,
      ),
  },
  {
    name: 'leave-meeting: leave-meeting 404 for an unknown session',
    run: async ({ h }) => expectError(await leave(h, 'ghost', { meeting_bot_id: 'bot-1' }), 404, /not found/),
  },
  {
    name: "leave-meeting: leave-meeting 403 for another account's session",
    run: async ({ h }) => expectError(await leave(h, await withBot(h), { meeting_bot_id: 'bot-1' }, BOB), 403),
  },
  {
    name: 'errors: leave-meeting 409 "Could not leave the meeting" for an unknown meeting_bot_id',
    run: async ({ h }) => expectError(await leave(h, await withBot(h), { meeting_bot_id: 'bot-9' }), 409, D.couldNot),
  },
  {
    name: 'errors: leave-meeting 409 "Failed to leave the meeting"',
    run: async ({ h }) => expectError(await leave(h, await withBot(h, 'failed'), { meeting_bot_id: 'bot-1' }), 409, D.failed),
  },
  {
    name: 'errors: leave-meeting 503 "Meeting service is not configured"',
    run: async ({ h }) =>
      expectError(await leave(h, await withBot(h, 'not_configured'), { meeting_bot_id: 'bot-1' }), 503, D.notConfigured),
  },
  {
    name: 'errors: leave-meeting 504 "Request timed out"',
    run: async ({ h }) => expectError(await leave(h, await withBot(h, 'timeout'), { meeting_bot_id: 'bot-1' }), 504, D.timedOut),
  },
];
