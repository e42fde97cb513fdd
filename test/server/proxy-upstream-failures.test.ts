import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { closedPort, countingFetch, proxyApp, proxyOptions, setFaults, startEmulator, type Emulator } from './helpers';

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator();
});
afterEach(async () => {
  await setFaults(emulator.url, { latencyMs: 0, failRate: 0, dropRate: 0 });
});
afterAll(async () => {
  await emulator.close();
});

describe('when the service misbehaves', () => {
  it('a slow service → 504 {detail} after upstream.timeoutMs (POSTs are not retried)', async () => {
    const counter = countingFetch();
    const app = proxyApp(
      proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', timeoutMs: 150, fetch: counter.fetch } }),
    );
    await setFaults(emulator.url, { latencyMs: 1500 });
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ detail: 'The avatar service did not answer in time; try again' });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(counter.calls).toBe(1);
  });

  it('an unreachable service → 502 {detail}; GETs are retried, POSTs are not', async () => {
    const port = await closedPort();
    const counter = countingFetch();
    const baseUrl = `http://127.0.0.1:${port}`;
    const app = proxyApp(
      proxyOptions(baseUrl, { upstream: { baseUrl, apiKey: 'dev-key-alice', fetch: counter.fetch }, admin: () => true }),
    );
    const post = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(post.status).toBe(502);
    expect(post.body).toEqual({ detail: 'The avatar service is unavailable; try again later' });
    expect(counter.calls).toBe(1);
    const get = await request(app).get('/api/avatar/sessions');
    expect(get.status).toBe(502);
    expect(counter.calls).toBe(1 + 3);
    expect(JSON.stringify(get.body)).not.toContain(String(port));
  });

  it('a service 5xx → 502 with a generic detail (the service text is not shown)', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { admin: () => true }));
    await setFaults(emulator.url, { failRate: 1 });
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(502);
    expect(res.body.detail).not.toMatch(/injected/);
  });

  it('a dropped connection → 502', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    await setFaults(emulator.url, { dropRate: 1 });
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(502);
  });

  it('GET /sessions/:id recovers when a retry succeeds', async () => {
    const counter = countingFetch();
    const app = proxyApp(
      proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch } }),
    );
    const s = (await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).body;
    let failures = 1;
    const flaky = proxyApp(
      proxyOptions(emulator.url, {
        upstream: {
          baseUrl: emulator.url,
          apiKey: 'dev-key-alice',
          fetch: async (input, init) => {
            if (failures-- > 0) throw new TypeError('fetch failed');
            return fetch(input, init);
          },
        },
      }),
    );
    const res = await request(flaky).get(`/api/avatar/sessions/${s.session_id}`).set('authorization', `Bearer ${s.client_token}`);
    expect(res.status).toBe(200);
    expect(res.body.session_status).toMatch(/QUEUED|ACTIVE/);
  });
});
