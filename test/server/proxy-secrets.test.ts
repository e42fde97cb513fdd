import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pino from 'pino';
import { ALICE, LIVEKIT, png, proxyApp, proxyOptions, startEmulator, waitFor, type Emulator, serviceId } from './helpers';

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

/** A pino logger at the most verbose level whose lines go into `lines`. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (s: string) => void lines.push(s) });
  return { logger, lines };
}

describe('secrets never leave the server', () => {
  it('a full flow: no API key, LiveKit secret or control_url in any response body, header or log line', async () => {
    const { logger, lines } = capturingLogger();
    const app = proxyApp(proxyOptions(emulator.url, { logger, admin: () => true }));
    const seen: string[] = [];
    const keep = (res: request.Response) => {
      seen.push(res.text, JSON.stringify(res.headers));
      return res;
    };
    const room = keep(await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' }));
    expect(room.status).toBe(201);
    const s = keep(
      await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a', agent_prompt: 'calm' }),
    ).body;
    const auth = { authorization: `Bearer ${s.client_token}` };
    await waitFor(async () => {
      const r = keep(await request(app).get(`/api/avatar/sessions/${s.session_id}`).set(auth));
      return r.body.session_status === 'ACTIVE' ? true : undefined;
    });
    const image_base64 = `data:image/png;base64,${(await png(92, 140)).toString('base64')}`;
    expect(
      keep(await request(app).post(`/api/avatar/sessions/${s.session_id}/control`).set(auth).send({ event: 'update-image', image_base64 }))
        .status,
    ).toBe(200);
    const upload = keep(
      await request(app)
        .post('/api/avatar/sessions')
        .attach('image', await png(), { filename: 'me.png', contentType: 'image/png' })
        .field('payload', JSON.stringify({ transport_type: 'websocket-rtc-a' })),
    );
    expect(upload.status).toBe(201);
    keep(await request(app).get('/api/avatar/sessions').query({ limit: 5 }));
    keep(await request(app).get('/api/avatar/rooms'));
    keep(
      await request(app)
        .get(`/api/avatar/sessions/${s.session_id}`)
        .set({ authorization: `Bearer ${room.body.client_token}` }),
    );
    keep(await request(app).get(`/api/avatar/sessions/${s.session_id}`));
    keep(await request(app).post('/api/avatar/sessions').send({ agent_id: 'no-such-agent', transport_type: 'rtc-a' }));
    keep(await request(app).get('/api/avatar/elsewhere'));
    expect(keep(await request(app).post(`/api/avatar/sessions/${s.session_id}/end`).set(auth).send({})).status).toBe(200);

    expect(lines.length).toBeGreaterThanOrEqual(seen.length / 2);
    expect(lines.every((l) => JSON.parse(l).reqId)).toBe(true);
    const everything = [...seen, ...lines].join('\n');
    expect(everything).not.toContain(ALICE);
    expect(everything).not.toContain(LIVEKIT.apiSecret);
    expect(everything).not.toContain('control_url');
    expect(everything).not.toContain(`/liveai/sessions/${await serviceId(s.session_id)}/control`);
    // Tokens appear in the responses that hand them out, never in the logs.
    const logs = lines.join('\n');
    for (const t of [s.client_token, s.token, room.body.client_token, room.body.token, upload.body.token]) expect(logs).not.toContain(t);
    expect(logs).not.toContain(image_base64.slice(30, 90));
  });

  it('a wrong API key: the browser gets a 502 without the key, the log says why without the key', async () => {
    const { logger, lines } = capturingLogger();
    const wrongKey = 'sk-live-WRONG-KEY-7f3a9c';
    const app = proxyApp(proxyOptions(emulator.url, { logger, upstream: { baseUrl: emulator.url, apiKey: wrongKey } }));
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ detail: 'The avatar service refused the proxy credentials' });
    const all = [res.text, JSON.stringify(res.headers), ...lines].join('\n');
    expect(all).not.toContain(wrongKey);
    expect(lines.some((l) => JSON.parse(l).level === 50)).toBe(true);
  });

  it('redacts secret-looking fields even if they reach a log call', async () => {
    const { logger, lines } = capturingLogger();
    const { REDACT_PATHS } = await import('../../src/server/index');
    const child = logger.child({}, { redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
    child.info(
      { headers: { 'x-api-key': ALICE, authorization: 'Bearer abc' }, client_token: 'ct', body: { image_base64: 'AAAA', token: 'rt' } },
      'x',
    );
    expect(lines[0]).not.toMatch(new RegExp(`${ALICE}|Bearer abc|"ct"|AAAA|"rt"`));
  });
});
