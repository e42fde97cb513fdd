// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAvatarSession, createProxyClient, type AvatarSessionOptions } from '../../../src/core';
import { FakeTransport, fakeTransportLoader } from '../../../src/testing';
import { listen, proxyApp, proxyOptions, startEmulator, type Emulator } from '../../server/helpers';
import { settle, until } from './helpers';

/**
 * The engine and the proxy client against the real proxy (`createAvatarProxy`) in front of the real emulator
 * (`--media off`): the wire contract between browser and proxy. The media room is a FakeTransport.
 */
let emulator: Emulator;
let proxy: Awaited<ReturnType<typeof listen>>;
let proxyUrl: string;

beforeAll(async () => {
  emulator = await startEmulator(1500); // long enough that the first status poll sees QUEUED even on a busy machine
  proxy = await listen(proxyApp(proxyOptions(emulator.url, { admin: (req) => req.headers['x-admin'] === 'yes' })));
  proxyUrl = `${proxy.url}/api/avatar`;
});
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

const make = (extra: Partial<AvatarSessionOptions> = {}) => {
  const fake = new FakeTransport();
  const loader = fakeTransportLoader(fake);
  const session = createAvatarSession({
    proxyUrl,
    flow: { kind: 'room', agentId: 'agent-demo' },
    loadTransport: loader,
    pollIntervalMs: 20,
    maxPollIntervalMs: 60,
    endTimeoutMs: 5000,
    ...extra,
  });
  const phases: string[] = [session.store.getState().phase];
  session.store.subscribe((s, p) => s.phase !== p.phase && phases.push(s.phase));
  return { session, fake, loader, phases };
};

describe('engine ⇄ real proxy ⇄ real emulator', () => {
  it('room flow: queued → active, controls validated by the proxy, end with cost', async () => {
    const { session, fake, loader, phases } = make();
    await session.start();
    const s = session.store.getState();
    expect(phases).toEqual(['idle', 'creating', 'queued', 'active']);
    expect(s.queuedAt).not.toBeNull();
    expect(loader.kinds).toHaveLength(1);
    expect(fake.connectCalls[0]!.token.length).toBeGreaterThan(0);
    await session.updateAgentPrompt('friendly');
    await session.action('wave');
    await session.updateImage({ url: 'https://example.com/a.png' });
    await session.end();
    const e = session.store.getState();
    expect(e.phase).toBe('ended');
    expect(e.sessionStatus).toBe('COMPLETED');
    expect(typeof e.cost).toBe('number');
    expect(fake.sentMessages).toContainEqual({ event: 'force-end' });
  });

  it('proxy errors surface as typed errors: unknown agent 404, foreign client token 403', async () => {
    const { session } = make({ flow: { kind: 'room', agentId: 'no-such-agent' } });
    const err = await settle(session.start());
    expect(err).toMatchObject({ code: expect.stringMatching(/not_found|forbidden/) });
    expect(session.store.getState().phase).toBe('error');
    const client = createProxyClient({ proxyUrl });
    const a = await client.createRoom('agent-demo');
    const b = await client.createRoom('agent-demo');
    await expect(client.getSession(a.session_id, b.client_token)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(client.getSession(a.session_id, '')).rejects.toMatchObject({ code: 'invalid_api_key' });
    await client.end(a.session_id, a.client_token);
    await client.end(b.session_id, b.client_token);
  });

  it('the beacon body form of /end ends the session (text/plain {client_token})', async () => {
    const client = createProxyClient({ proxyUrl });
    const a = await client.createRoom('agent-demo');
    const res = await fetch(`${proxyUrl}/sessions/${a.session_id}/end`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ client_token: a.client_token }),
    });
    expect(res.ok).toBe(true);
    const status = await until(async () => {
      const r = await client.getSession(a.session_id, a.client_token);
      return r.session_status === 'COMPLETED' ? r : undefined;
    });
    expect(status).toBeTruthy();
  });

  it('session flow (websocket-rtc-a) exposes websocket_address; the admin lists need the admin header', async () => {
    const { session } = make({ flow: { kind: 'session', request: { agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' } } });
    void session.start().catch(() => {});
    await until(() => session.getClientSession(), 'created');
    expect(session.getClientSession()!.websocket_address).toMatch(/^wss?:\/\//);
    await session.end();
    const admin = createProxyClient({ proxyUrl, headers: { 'x-admin': 'yes' } });
    const list = await admin.listSessions({ page: 1, limit: 5 });
    expect(list.pagination.page).toBe(1);
    expect(list.sessions.length).toBeGreaterThan(0);
    await expect(createProxyClient({ proxyUrl }).listRooms()).rejects.toMatchObject({ code: 'forbidden' });
  });
});
