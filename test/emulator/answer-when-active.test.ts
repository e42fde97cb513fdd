import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index';
import { ALICE, bodies } from './helpers';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const status = async (id: string) => (await request(emu!.app).get(`/liveai/sessions/${id}`).set('X-API-Key', ALICE)).body.session_status;

describe('answerWhenActive: the create answer waits for the avatar', () => {
  it('without it a new room answers while QUEUED', async () => {
    emu = await createEmulator({ port: 0, queueMs: 60_000 });
    const r = await request(emu.app).post('/liveai/rooms').set('X-API-Key', ALICE).send({ agent_id: 'agent-demo' });
    expect(r.status).toBe(201);
    expect(await status(r.body.session_id)).toBe('QUEUED');
  });

  it.each([
    ['POST /liveai/rooms', '/liveai/rooms', { agent_id: 'agent-demo' }],
    ['POST /liveai/sessions', '/liveai/sessions', bodies.rtcB()],
  ])('%s answers once the session is ACTIVE', async (_name, path, body) => {
    emu = await createEmulator({ port: 0, queueMs: 50, answerWhenActive: true });
    const r = await request(emu.app).post(path).set('X-API-Key', ALICE).send(body);
    expect(r.status).toBe(201);
    expect(await status(r.body.session_id)).toBe('ACTIVE');
    expect(emu.state.events(r.body.session_id).map((e) => e.event.type)).toContain('bot_ready');
  });

  it('a session that fails while queued is answered too (then FAILED), never left hanging', async () => {
    emu = await createEmulator({ port: 0, queueMs: 10, answerWhenActive: true, faults: { nextSessionOutcome: 'fail' } });
    const r = await request(emu.app).post('/liveai/rooms').set('X-API-Key', ALICE).send({ agent_id: 'agent-demo' });
    expect(r.status).toBe(201);
    expect(await status(r.body.session_id)).toBe('FAILED');
  });
});
