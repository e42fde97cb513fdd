import { expect } from 'vitest';
import { ALICE, BROKE, bodies } from '../helpers';
import { expectError, type Case } from './types';

const created = async (res: { status: number; body: Record<string, unknown> }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

export const createSessionCases: Case[] = [
  {
    name: 'create session: rtc-a session: 201 with session_id and control_url only',
    run: async ({ h }) => {
      const body = await created(await h.post('/liveai/sessions', bodies.rtcA(), ALICE));
      expect(Object.keys(body).sort()).toEqual(['control_url', 'session_id']);
    },
  },
  {
    name: 'fields: control_url is {base}/liveai/sessions/{id}/control',
    run: async ({ h }) => {
      const body = await created(await h.post('/liveai/sessions', bodies.rtcA(), ALICE));
      expect(body.control_url).toBe(`${h.url}/liveai/sessions/${body.session_id}/control`);
    },
  },
  {
    name: 'fields: rtc-b session: room_url is the rtc_b_url',
    run: async ({ h }) => {
      const body = await created(await h.post('/liveai/sessions', bodies.rtcB(), ALICE));
      expect(body.room_url).toBe('https://rooms.example.test/r1');
      expect(body.websocket_address).toBeUndefined();
    },
  },
  {
    name: 'fields: websocket-rtc-a session: websocket_address ws://host:port/liveai/ws/{id}',
    run: async ({ h }) => {
      const body = await created(await h.post('/liveai/sessions', bodies.wsA(), ALICE));
      expect(body.websocket_address).toBe(`${h.url.replace('http', 'ws')}/liveai/ws/${body.session_id}`);
      expect(body.room_url).toBeUndefined();
    },
  },
  {
    name: 'fields: websocket-rtc-b session: websocket_address present',
    run: async ({ h }) => {
      const body = await created(await h.post('/liveai/sessions', bodies.wsB(), ALICE));
      expect(body.websocket_address).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/liveai\/ws\/[0-9a-f]+$/);
    },
  },
  {
    name: 'fields: 400 when transport_type is missing',
    run: async ({ h }) => expectError(await h.post('/liveai/sessions', { agent_id: 'agent-demo' }, ALICE), 400, /transport_type/),
  },
  {
    name: 'fields: 400 when transport_type is unknown',
    run: async ({ h }) =>
      expectError(await h.post('/liveai/sessions', bodies.rtcA({ transport_type: 'carrier-pigeon' }), ALICE), 400, /transport_type/),
  },
  {
    name: 'fields: 400 naming properties.rtc_a_url when rtc-a has no properties',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' }, ALICE),
        400,
        /properties\.rtc_a_url/,
      ),
  },
  {
    name: 'fields: 400 when rtc-b is given rtc-a properties',
    run: async ({ h }) =>
      expectError(await h.post('/liveai/sessions', bodies.rtcA({ transport_type: 'rtc-b' }), ALICE), 400, /properties\.rtc_b_url/),
  },
  {
    name: 'fields: 400 naming rtc_a_properties when websocket-rtc-a has none',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', { agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' }, ALICE),
        400,
        /rtc_a_properties/,
      ),
  },
  {
    name: 'fields: 400 naming rtc_b_properties when websocket-rtc-b has none',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', { agent_id: 'agent-demo', transport_type: 'websocket-rtc-b' }, ALICE),
        400,
        /rtc_b_properties/,
      ),
  },
  {
    name: 'fields: 400 when rtc_a_url is not a ws:// or wss:// URL',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', bodies.rtcA({ properties: { rtc_a_url: 'http://x', rtc_a_token: 't' } }), ALICE),
        400,
        /rtc_a/,
      ),
  },
  {
    name: 'fields: 400 when no avatar source is given (agent_id, agent_image_url or image)',
    run: async ({ h }) => expectError(await h.post('/liveai/sessions', bodies.rtcA({ agent_id: undefined }), ALICE), 400, /avatar source/),
  },
  {
    name: 'fields: 400 when both agent_id and agent_image_url are given',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', bodies.rtcA({ agent_image_url: 'https://img.example.test/a.png' }), ALICE),
        400,
        /exactly one avatar source/,
      ),
  },
  {
    name: 'fields: agent_image_url alone is a valid avatar source',
    run: async ({ h }) =>
      void (await created(
        await h.post('/liveai/sessions', bodies.rtcA({ agent_id: undefined, agent_image_url: 'https://img.example.test/a.png' }), ALICE),
      )),
  },
  {
    name: 'fields: 400 when agent_image_url is not an http(s) URL',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', bodies.rtcA({ agent_id: undefined, agent_image_url: 'ftp://x/a.png' }), ALICE),
        400,
        /agent_image_url/,
      ),
  },
  {
    name: 'fields: cartoon model with aspect_ratio 2x3 is accepted',
    run: async ({ h }) =>
      void (await created(
        await h.post('/liveai/sessions', bodies.wsA({ agent_id: 'agent-cartoon', model: 'cartoon', aspect_ratio: '2x3' }), ALICE),
      )),
  },
  {
    name: 'fields: cartoon model without aspect_ratio is accepted (2x3 implied)',
    run: async ({ h }) => void (await created(await h.post('/liveai/sessions', bodies.wsA({ model: 'cartoon' }), ALICE))),
  },
  {
    name: 'limits: 400 naming aspect_ratio when the cartoon model gets 16x9',
    run: async ({ h }) =>
      expectError(
        await h.post('/liveai/sessions', bodies.wsA({ model: 'cartoon', aspect_ratio: '16x9' }), ALICE),
        400,
        /aspect_ratio.*2x3/,
      ),
  },
  {
    name: 'fields: 400 when aspect_ratio is given without the cartoon model (emulator rule)',
    run: async ({ h }) => expectError(await h.post('/liveai/sessions', bodies.wsA({ aspect_ratio: '2x3' }), ALICE), 400, /aspect_ratio/),
  },
  {
    name: 'create session: 404 when the agent does not exist',
    run: async ({ h }) => expectError(await h.post('/liveai/sessions', bodies.rtcA({ agent_id: 'agent-ghost' }), ALICE), 404, /not found/),
  },
  {
    name: 'create session: 402 when the agent owner has no credits',
    run: async ({ h }) =>
      expectError(await h.post('/liveai/sessions', bodies.rtcA({ agent_id: 'agent-broke' }), BROKE), 402, /insufficient funds/),
  },
  {
    name: 'create session: 402 when the balance is negative, 201 again once credits are positive',
    run: async ({ fresh }) => {
      const h = await fresh();
      h.emu.state.setCredits(ALICE, -0.5);
      expectError(await h.post('/liveai/sessions', bodies.rtcA(), ALICE), 402);
      h.emu.state.setCredits(ALICE, 0.01);
      expect((await h.post('/liveai/sessions', bodies.rtcA(), ALICE)).status).toBe(201);
    },
  },
  {
    name: 'create session: malformed JSON → 400 {detail}, never 500',
    run: async ({ h }) =>
      expectError(
        await h.raw('post', '/liveai/sessions').set('X-API-Key', ALICE).type('json').send('{"transport_type":'),
        400,
        /malformed JSON/,
      ),
  },
  {
    name: 'create session: a JSON array body → 400',
    run: async ({ h }) =>
      expectError(await h.raw('post', '/liveai/sessions').set('X-API-Key', ALICE).type('json').send('[1,2]'), 400, /JSON object/),
  },
  {
    name: 'create session: a missing body → 400 (the body is required)',
    run: async ({ h }) => expectError(await h.raw('post', '/liveai/sessions').set('X-API-Key', ALICE), 400, /JSON object/),
  },
  {
    name: 'fields: agent_prompt is kept as the avatar demeanour',
    run: async ({ h }) => {
      const id = await h.session(bodies.wsA({ agent_prompt: 'cheerful' }));
      expect(h.emu.state.session(id)?.demeanour).toEqual({ agentPrompt: 'cheerful' });
    },
  },
];
