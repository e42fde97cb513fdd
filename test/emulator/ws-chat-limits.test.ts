import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openWebSocket } from '../server/helpers';
import { ALICE, Harness, bodies } from './helpers';

/**
 * Issue 24 item 12: the local service's audio WebSocket and chat have limits. Attack (before): 400 of 400 sockets
 * opened on one session, a page of any origin could open them, and a 14 kB `chat-msg` was taken and echoed.
 */
const open = openWebSocket;
const closed = (ws: WebSocket) => new Promise<void>((r) => (ws.readyState === WebSocket.CLOSED ? r() : ws.once('close', () => r())));

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({ allowedOrigins: ['https://app.example.test'] });
});
afterAll(async () => {
  await h.close();
});

async function wsSession(): Promise<{ id: string; address: string }> {
  const res = await h.post('/liveai/sessions', bodies.wsA(), ALICE);
  expect(res.status).toBe(201);
  return { id: res.body.session_id as string, address: res.body.websocket_address as string };
}

describe('audio WebSocket limits', () => {
  it('at most 2 sockets at once per session (default): the third gets 429, and one more fits once one closes', async () => {
    const { address } = await wsSession();
    const tries = await Promise.all(Array.from({ length: 6 }, () => open(address)));
    const opened = tries.filter((t) => t.status === 101);
    expect(opened).toHaveLength(2);
    const refused = tries.filter((t) => t.status !== 101);
    expect(refused.every((t) => t.status === 429 && /2 audio WebSockets open already/.test(t.detail ?? ''))).toBe(true);
    opened[0]!.ws!.close();
    await closed(opened[0]!.ws!);
    const again = await open(address);
    expect(again.status).toBe(101);
    again.ws!.close();
    opened[1]!.ws!.close();
  });

  it('a web page (an Origin header) is refused with 403 unless its origin is allowed; servers (no Origin) connect', async () => {
    const { address } = await wsSession();
    const evil = await open(address, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.detail).toMatch(/allowedOrigins/);
    const page = await open(address, { origin: 'https://app.example.test' });
    expect(page.status).toBe(101);
    page.ws!.close();
    const server = await open(address);
    expect(server.status).toBe(101);
    server.ws!.close();
  });
});

describe('chat-msg limits', () => {
  it('a chat message over 2000 characters is refused with 413 and echoes nothing; one at the limit is answered', async () => {
    const id = await h.activeSession(bodies.rtcA());
    const big = await h.post(`/__emulator/sessions/${id}/app-message`, { event: 'chat-msg', message: 'x'.repeat(14_000), name: 'n' });
    expect(big.status).toBe(413);
    expect(big.body.detail).toBe('chat-msg message has 14000 characters; at most 2000 are accepted');
    expect(h.types(id)).not.toContain('user_transcription');
    const longName = await h.post(`/__emulator/sessions/${id}/app-message`, { event: 'chat-msg', message: 'hi', name: 'n'.repeat(101) });
    expect(longName.status).toBe(413);
    const ok = await h.post(`/__emulator/sessions/${id}/app-message`, { event: 'chat-msg', message: 'y'.repeat(2000), name: 'n' });
    expect(ok.status).toBe(200);
    expect(h.types(id).filter((t) => t === 'user_transcription')).toHaveLength(1);
  });
});
