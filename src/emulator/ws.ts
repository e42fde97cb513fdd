import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isFinalStatus } from '../core/index';
import { hostAllowed } from './http/host-check';
import type { EmulatorContext } from './context';
import { touch } from './lifecycle';
import type { SessionRecord } from './store';

/** Largest audio frame accepted, bytes (2 s of PCM16 mono 16 kHz); bigger frames close the socket with 1009. */
export const MAX_PCM_FRAME_BYTES = 64 * 1024;
/** Sample rate of the audio on `websocket_address`, Hz. */
export const PCM_SAMPLE_RATE_HZ = 16_000;

/** PCM16 little-endian bytes → samples, independent of the host's byte order. */
export function pcm16le(buf: Buffer): Int16Array {
  const out = new Int16Array(buf.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(i * 2);
  return out;
}

const toBuffer = (data: RawData): Buffer => (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));

const REASONS: Record<number, string> = { 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 429: 'Too Many Requests' };

/** True when the upgrade comes from a server (no `Origin`) or from a page whose origin is allowed. */
function originAllowed(ctx: EmulatorContext, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return true;
  const o = origin.toLowerCase();
  return ctx.options.allowedOrigins.some((a) => a.toLowerCase() === o);
}

function reject(socket: Duplex, status: number, detail: string): void {
  const body = JSON.stringify({ detail });
  const reason = REASONS[status] ?? 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Handles one audio socket: binary PCM16 LE mono 16 kHz frames of even length → the avatar (docs/emulator.md). */
function serve(ctx: EmulatorContext, rec: SessionRecord, ws: WebSocket): void {
  rec.sockets.add(ws);
  ws.on('close', () => rec.sockets.delete(ws));
  ws.on('error', () => rec.sockets.delete(ws));
  ws.on('message', (data, isBinary) => {
    if (!isBinary) return ws.close(1003, 'text frames are not accepted: send binary PCM16 LE mono 16 kHz');
    const buf = toBuffer(data);
    if (buf.length % 2 !== 0) return ws.close(1003, `odd byte count ${buf.length}: PCM16 frames need an even number of bytes`);
    rec.pcm.frames += 1;
    rec.pcm.bytes += buf.length;
    touch(ctx, rec);
    if (buf.length > 0) rec.media?.playPcm(pcm16le(buf));
  });
}

/**
 * Serves `ws://host:port/liveai/ws/{session_id}` on the HTTP server (`websocket_address`) for
 * `websocket-*` sessions that have not ended. Other upgrade requests get 404 / 409 `{detail}`; an upgrade with an
 * `Origin` not in `allowedOrigins` 403, one past `maxSocketsPerSession` open sockets of the session 429.
 * Frames above `MAX_PCM_FRAME_BYTES` close the socket with 1009, text or odd-length frames with 1003.
 */
export function attachWebSockets(ctx: EmulatorContext, server: Server): WebSocketServer {
  const opening = new WeakMap<SessionRecord, number>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PCM_FRAME_BYTES });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!hostAllowed(ctx, req)) return reject(socket, 403, 'Host not allowed');
    if (!originAllowed(ctx, req)) {
      return reject(socket, 403, 'WebSocket connections from web pages are not allowed (see the allowedOrigins option)');
    }
    const m = /^\/liveai\/ws\/([^/?#]+)\/?(?:\?.*)?$/.exec(req.url ?? '');
    const rec = m ? ctx.store.sessions.get(decodeURIComponentSafe(m[1]!)) : undefined;
    if (!rec) return reject(socket, 404, 'no WebSocket session at this address');
    if (!rec.transport?.startsWith('websocket-')) return reject(socket, 400, `session ${rec.id} does not use a WebSocket transport`);
    if (isFinalStatus(rec.status)) return reject(socket, 409, `session ${rec.id} has ended (${rec.status})`);
    const max = ctx.options.maxSocketsPerSession;
    // Upgrades still in their handshake count too, so a burst of them cannot pass the cap together.
    if (rec.sockets.size + (opening.get(rec) ?? 0) >= max) {
      return reject(socket, 429, `session ${rec.id} has ${max} audio WebSockets open already; close one first`);
    }
    opening.set(rec, (opening.get(rec) ?? 0) + 1);
    let counted = true;
    const done = () => {
      if (counted) opening.set(rec, (opening.get(rec) ?? 1) - 1);
      counted = false;
    };
    socket.once('close', done);
    wss.handleUpgrade(req, socket, head, (ws) => {
      done();
      serve(ctx, rec, ws);
    });
  });
  return wss;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
