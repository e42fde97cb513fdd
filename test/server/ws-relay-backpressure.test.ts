import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { createWsRelay, MAX_RELAY_BUFFERED_BYTES, MAX_RELAY_FRAME_BYTES } from '../../src/server/adapters/express/ws-relay';
import { createSealer } from '../../src/server/session/handle';
import type { Guard } from '../../src/server/limits/guard';
import { SECRET } from './helpers';

/**
 * Issue 36 item 5: the Express relay of the audio WebSocket holds a bounded amount for each side. A real upstream
 * WebSocket server stops reading (or a browser does) while the other side sends as fast as it can; the relay must
 * end the pair with close code 1013 and a reason naming the side, instead of buffering without end (before: the
 * proxy grew from 110 to 688 MiB RSS).
 */
const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

/** The sender stops after this much if nobody closes it (before the fix, nobody did). */
const GIVE_UP_BYTES = 96 * 1024 * 1024;
const chunk = Buffer.alloc(MAX_RELAY_FRAME_BYTES, 1);
/** The relay's limit plus room for the kernels' socket buffers on the way. */
const BOUND = MAX_RELAY_BUFFERED_BYTES + 31 * 1024 * 1024;

async function relayTo(upstream: WebSocketServer): Promise<string> {
  const sealer = createSealer(new TextEncoder().encode(SECRET));
  const guard = { endedReason: () => Promise.resolve(undefined) } as unknown as Guard;
  const log = { info() {}, warn() {}, error() {} };
  const relay = createWsRelay({ sealer, guard, log, allowedOrigins: undefined as never, lifetimeMs: 60_000 });
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  opened.push({ close: () => (server.closeAllConnections(), server.close()) });
  const handle = await sealer.handle({ sessionId: 'svc-session', startedAt: Date.now() });
  const port = (server.address() as AddressInfo).port;
  const upstreamUrl = `ws://127.0.0.1:${(upstream.address() as AddressInfo).port}/audio`;
  return relay.address(handle, upstreamUrl, { scheme: 'ws', host: `127.0.0.1:${port}`, mount: '/api/avatar' }, server);
}

async function upstreamServer(onConnection: (ws: WebSocket) => void): Promise<WebSocketServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', r));
  wss.on('connection', onConnection);
  opened.push({ close: () => (wss.clients.forEach((c) => c.terminate()), wss.close()) });
  return wss;
}

/** Sends `chunk` on `ws` as fast as its connection takes it, until it closes or `GIVE_UP_BYTES` went out. */
async function flood(ws: WebSocket): Promise<number> {
  let sent = 0;
  while (ws.readyState === WebSocket.OPEN && sent < GIVE_UP_BYTES) {
    const ok = await new Promise<boolean>((resolve) => ws.send(chunk, (err) => resolve(!err)));
    if (!ok) break;
    sent += chunk.length;
  }
  return sent;
}

const pause = (ws: WebSocket) => (ws as unknown as { _socket: { pause(): void } })._socket.pause();

describe('WebSocket relay backpressure', () => {
  it('an upstream that stops reading: the browser is closed with 1013, after a bounded amount', async () => {
    const upstream = await upstreamServer((ws) => pause(ws));
    const address = await relayTo(upstream);
    const browser = new WebSocket(address);
    opened.push({ close: () => browser.terminate() });
    await new Promise((r) => browser.once('open', r));
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      browser.once('close', (code, reason) => r({ code, reason: reason.toString() })),
    );
    const sent = await flood(browser);
    // Before: all 96 MiB went out and the socket stayed open.
    expect(browser.readyState).not.toBe(WebSocket.OPEN);
    expect(await closed).toEqual({ code: 1013, reason: 'Relay buffer full: the avatar service is not reading' });
    // What the browser got out before the close: the relay's limit plus what the kernels' socket buffers took
    // (about 8 MB on loopback).
    expect(sent).toBeLessThan(BOUND);
  }, 60_000);

  it('a browser that stops reading: the service is closed with 1013, after a bounded amount', async () => {
    const ended = new Promise<{ sent: number; open: boolean; close?: { code: number; reason: string } }>((resolve) => {
      void upstreamServer((ws) => {
        const closed = new Promise<{ code: number; reason: string }>((r) =>
          ws.once('close', (code, reason) => r({ code, reason: reason.toString() })),
        );
        void flood(ws).then(async (sent) => {
          // Before: all 96 MiB went out and the socket stayed open.
          if (ws.readyState === WebSocket.OPEN) return resolve({ sent, open: true });
          resolve({ sent, open: false, close: await closed });
        });
      }).then(async (upstream) => {
        const browser = new WebSocket(await relayTo(upstream));
        opened.push({ close: () => browser.terminate() });
        browser.once('open', () => pause(browser));
      });
    });
    const { sent, open, close } = await ended;
    expect(open).toBe(false);
    expect(close).toEqual({ code: 1013, reason: 'Relay buffer full: the browser is not reading' });
    expect(sent).toBeLessThan(BOUND);
  }, 60_000);
});
