import { expect } from 'vitest';
import WebSocket from 'ws';
import { ALICE, bodies, waitFor, type Harness } from '../helpers';
import { type Case } from './types';

const open = (url: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
const closed = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((r) => ws.once('close', (code, reason) => r({ code, reason: reason.toString() })));
const rejected = (url: string) =>
  new Promise<number>((resolve) => {
    const ws = new WebSocket(url);
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('open', () => resolve(101));
    ws.once('error', () => resolve(-1));
  });
async function wsSession(h: Harness, body: object = bodies.wsA()) {
  const res = await h.post('/liveai/sessions', body, ALICE);
  return { id: res.body.session_id as string, address: res.body.websocket_address as string };
}

export const websocketCases: Case[] = [
  {
    name: 'fields: websocket_address accepts binary PCM16 LE mono 16 kHz frames of any even length',
    run: async ({ h }) => {
      const { id, address } = await wsSession(h);
      const ws = await open(address);
      for (const n of [320, 2, 6400, 0]) ws.send(Buffer.alloc(n));
      await waitFor(() => h.emu.state.session(id)?.websocket.frames === 4, 'four frames');
      expect(h.emu.state.session(id)?.websocket.bytes).toBe(6722);
      ws.close();
    },
  },
  {
    name: 'fields: websocket: an odd-length frame closes the socket with 1003 and a reason',
    run: async ({ h }) => {
      const ws = await open((await wsSession(h)).address);
      const c = closed(ws);
      ws.send(Buffer.alloc(3));
      expect(await c).toMatchObject({ code: 1003, reason: expect.stringMatching(/odd byte count/) });
    },
  },
  {
    name: 'fields: websocket: a text frame closes the socket with 1003',
    run: async ({ h }) => {
      const ws = await open((await wsSession(h, bodies.wsB())).address);
      const c = closed(ws);
      ws.send('hello');
      expect(await c).toMatchObject({ code: 1003, reason: expect.stringMatching(/binary PCM16/) });
    },
  },
  {
    name: 'fields: websocket: a frame above 65536 bytes closes the socket with 1009',
    run: async ({ h }) => {
      const ws = await open((await wsSession(h)).address);
      const c = closed(ws);
      ws.send(Buffer.alloc(65538));
      expect((await c).code).toBe(1009);
    },
  },
  {
    name: 'fields: websocket: audio frames count as activity (they restart the idle clock)',
    run: async ({ fresh }) => {
      const h = await fresh({ idleTimeoutS: 0.6 });
      const { id, address } = await wsSession(h);
      const ws = await open(address);
      await h.status(id, 'ACTIVE');
      for (let i = 0; i < 7; i++) {
        ws.send(Buffer.alloc(3200));
        await new Promise((r) => setTimeout(r, 150)); // pacing of the audio stream, not synchronisation
      }
      expect(h.emu.state.session(id)?.session_status).toBe('ACTIVE');
      await h.event(id, 'idle_timeout');
    },
  },
  {
    name: 'fields: websocket: an unknown session id is refused with 404',
    run: async ({ h }) => expect(await rejected(`${h.url.replace('http', 'ws')}/liveai/ws/nope`)).toBe(404),
  },
  {
    name: 'fields: websocket: a session on a non-WebSocket transport is refused with 400',
    run: async ({ h }) => expect(await rejected(`${h.url.replace('http', 'ws')}/liveai/ws/${await h.session()}`)).toBe(400),
  },
  {
    name: 'control: terminate closes the session WebSocket with 1000',
    run: async ({ h }) => {
      const { id, address } = await wsSession(h);
      const ws = await open(address);
      const c = closed(ws);
      await h.control(id, { event: 'terminate' }).expect(200);
      expect((await c).code).toBe(1000);
      expect(await rejected(address)).toBe(409);
    },
  },
];
