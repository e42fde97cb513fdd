import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { renderFacePng } from '../../src/emulator/assets';
import { createServiceClient } from '../../src/server/index';
import { ALICE, LIVEKIT, type Emulator, listen, proxyApp, proxyOptions } from './helpers';

/**
 * `providerLabels` on the API-key client and the proxy, against the real local service started with
 * `--provider-labels rtc-a=livekit,rtc-b=daily`: your code keeps the neutral names, the wire uses the service's.
 */
describe('providerLabels: service client and proxy against a labelled service', () => {
  let emu: Emulator;
  const labels = 'rtc-a=livekit,rtc-b=daily';
  /** Bodies the service received, as sent on the wire. */
  const wire: Array<Record<string, unknown>> = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') wire.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(input, init);
  };

  beforeAll(async () => {
    emu = await createEmulator({ port: 0, media: false, queueMs: 20, providerLabels: labels });
  });
  afterAll(() => emu.close());

  it('the service client sends labelled identifiers and hands back neutral ones', async () => {
    const client = createServiceClient({
      baseUrl: emu.url,
      apiKey: ALICE,
      providerLabels: { 'rtc-a': 'livekit', 'rtc-b': 'daily' },
      fetch: recordingFetch,
    });
    const created = await client.createSession({
      agent_id: 'agent-demo',
      transport_type: 'websocket-rtc-a',
      rtc_a_properties: { rtc_a_url: LIVEKIT.url, rtc_a_token: 'avatar-token' },
      idle_timeout: 120,
    });
    expect(created.websocket_address).toMatch(/^ws:/);
    expect(wire.at(-1)).toMatchObject({
      transport_type: 'websocket-livekit',
      livekit_properties: { livekit_url: LIVEKIT.url, livekit_token: 'avatar-token' },
      idle_timeout: 120,
    });
    const list = await client.listSessions({ limit: 100 });
    expect(list.sessions.find((s) => s.session_id === created.session_id)?.provider).toBe('RTC_A');
  });

  it('relabels the JSON payload of a multipart body', async () => {
    const client = createServiceClient({ baseUrl: emu.url, apiKey: ALICE, providerLabels: labels });
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await renderFacePng('agent-demo'))], { type: 'image/png' }), 'face.png');
    form.append(
      'payload',
      new Blob([JSON.stringify({ transport_type: 'rtc-b', properties: { rtc_b_url: 'https://rooms.example.test/x', rtc_b_token: 't' } })], {
        type: 'application/json',
      }),
    );
    const created = await client.createSession(form);
    expect(created.room_url).toBe('https://rooms.example.test/x');
  });

  it('a client without the labels is refused in the service’s own terms', async () => {
    const client = createServiceClient({ baseUrl: emu.url, apiKey: ALICE });
    await expect(
      client.createSession({
        agent_id: 'agent-demo',
        transport_type: 'rtc-b',
        properties: { rtc_b_url: 'https://r.example.test/a', rtc_b_token: 't' },
      }),
    ).rejects.toMatchObject({
      status: 400,
      detail: expect.stringContaining('daily'),
    });
  });

  it('a malformed label is refused when the client or the proxy is created', () => {
    expect(() => createServiceClient({ baseUrl: emu.url, apiKey: ALICE, providerLabels: 'rtc-a=Live Kit' })).toThrow(/providerLabels/);
    expect(() => proxyApp(proxyOptions(emu.url, { providerLabels: { 'rtc-z': 'x' } as never }))).toThrow(/providerLabels/);
  });

  it('the proxy creates an rtc-a session upstream with the labels; the browser sees neutral names', async () => {
    wire.length = 0;
    const proxy = await listen(
      proxyApp(proxyOptions(emu.url, { providerLabels: labels, upstream: { baseUrl: emu.url, apiKey: ALICE, fetch: recordingFetch } })),
    );
    try {
      const res = await request(proxy.server).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' });
      expect(res.status).toBe(201);
      expect(res.body.transport).toBe('rtc-a');
      const sent = wire.at(-1) as { transport_type: string; properties: Record<string, string> };
      expect(sent.transport_type).toBe('livekit');
      expect(Object.keys(sent.properties).sort()).toEqual(['livekit_token', 'livekit_url']);
    } finally {
      await proxy.close();
    }
  });
});
