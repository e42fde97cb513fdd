import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index';
import { ALICE, bodies, type Seen } from './helpers';
import { responseProblems } from './openapi-match';

type Doc = { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> };

describe('OpenAPI: GET /openapi.json', () => {
  let emu: Emulator;
  let doc: Doc;
  beforeAll(async () => {
    emu = await createEmulator({ port: 0, media: false, queueMs: 10 });
    doc = (await request(emu.url).get('/openapi.json').expect(200)).body as Doc;
  });
  afterAll(() => emu.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every endpoint path of the service with its methods', () => {
    const ops = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops).toEqual(
      expect.arrayContaining([
        'GET /liveai/rooms',
        'POST /liveai/rooms',
        'GET /liveai/sessions',
        'POST /liveai/sessions',
        'GET /liveai/sessions/{session_id}',
        'POST /liveai/sessions/{session_id}/control',
        'POST /liveai/sessions/{session_id}/leave-meeting',
      ]),
    );
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(item)) if (m === 'post') expect(op.requestBody, `${m} ${p}`).toBeDefined();
    }
  });

  it('every documented operation answers, with a documented status and a body matching its schema', async () => {
    const id = (await request(emu.url).post('/liveai/sessions').set('X-API-Key', ALICE).send(bodies.rtcA()).expect(201)).body
      .session_id as string;
    const calls: Record<string, () => request.Test> = {
      'get /liveai/rooms': () => request(emu.url).get('/liveai/rooms').set('X-API-Key', ALICE),
      'post /liveai/rooms': () => request(emu.url).post('/liveai/rooms').set('X-API-Key', ALICE).send({ agent_id: 'agent-demo' }),
      'get /liveai/sessions': () => request(emu.url).get('/liveai/sessions').set('X-API-Key', ALICE),
      'post /liveai/sessions': () => request(emu.url).post('/liveai/sessions').set('X-API-Key', ALICE).send(bodies.wsA()),
      'get /liveai/sessions/{session_id}': () => request(emu.url).get(`/liveai/sessions/${id}`).set('X-API-Key', ALICE),
      'post /liveai/sessions/{session_id}/control': () =>
        request(emu.url).post(`/liveai/sessions/${id}/control`).send({ event: 'reset-idle-timeout' }),
      'post /liveai/sessions/{session_id}/leave-meeting': () =>
        request(emu.url).post(`/liveai/sessions/${id}/leave-meeting`).set('X-API-Key', ALICE).send({ meeting_bot_id: 'b' }),
      'get /liveai/assets/{file}': () => request(emu.url).get('/liveai/assets/agent-demo.png'),
    };
    const problems: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const m of Object.keys(item)) {
        const call = calls[`${m} ${p}`];
        if (!call) {
          problems.push(`no test call for ${m} ${p}`);
          continue;
        }
        const res = await call();
        expect(res.status, `${m} ${p}`).toBeLessThan(500);
        const req = (res as unknown as { req: { method: string; path: string } }).req;
        const seen: Seen = {
          method: req.method,
          path: req.path,
          status: res.status,
          contentType: String(res.headers['content-type']),
          body: res.body,
        };
        problems.push(...responseProblems(doc as unknown as Record<string, unknown>, seen));
      }
    }
    expect(problems).toEqual([]);
  });

  it('the server URL is the emulator base URL and /__emulator routes are not documented', () => {
    expect((doc as unknown as { servers: { url: string }[] }).servers[0]!.url).toBe(emu.url);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/__emulator'))).toBe(false);
  });
});
