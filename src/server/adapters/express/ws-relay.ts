import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type * as WsNs from 'ws';
import { LiveAiError } from '../../../core/index';
import type { Guard } from '../../limits/guard';
import type { Sealer } from '../../session/handle';
import type { ProxyLog } from '../../logging';
import { loadPeer } from '../../peers';
import { checkSite, type OriginRule } from '../../proxy/site';

/** Largest message relayed, bytes (2 s of PCM16 mono 16 kHz); bigger ones close the browser's socket with 1009. */
export const MAX_RELAY_FRAME_BYTES = 64 * 1024;
/**
 * Most bytes the relay holds for one side of a relayed WebSocket: messages it took from one side and the other
 * side's connection has not accepted yet (ws's `bufferedAmount`). A side that stops reading for this long (1 MiB
 * is about 32 s of PCM16 mono 16 kHz) ends the relay: see {@link RELAY_OVERFLOW_CLOSE_CODE}.
 */
export const MAX_RELAY_BUFFERED_BYTES = 1024 * 1024;
/**
 * The close code (1013, "try again later") the relay closes a socket with when the other side stopped reading
 * and {@link MAX_RELAY_BUFFERED_BYTES} would be passed; the other side is dropped. Its reason says which side:
 * `Relay buffer full: the avatar service is not reading` (to the browser) or
 * `Relay buffer full: the browser is not reading` (to the service).
 */
export const RELAY_OVERFLOW_CLOSE_CODE = 1013;
/** How long the service gets to accept the relayed socket, ms. */
const UPSTREAM_OPEN_MS = 10_000;
/** A relay address stays usable this long past the session's maximum length, ms. */
const TICKET_SLACK_MS = 10 * 60_000;
const ROUTE = /\/sessions\/([^/]+)\/ws\/?$/;

type WsModule = typeof WsNs;
type Ticket = { h: string; w: string; e: number };

/** Where the browser reaches this proxy: `ws` or `wss`, the Host it used, and the router's mount path. */
export interface RelayBase {
  scheme: 'ws' | 'wss';
  host: string;
  mount: string;
}

/** What the relay needs from the proxy. */
export interface RelayDeps {
  sealer: Sealer;
  guard: Guard;
  log: ProxyLog;
  allowedOrigins: OriginRule<IncomingMessage>;
  /** How long a relay address stays valid, ms (the session's maximum length, or a day without one). */
  lifetimeMs: number;
}

/**
 * Relays the audio WebSocket of `websocket-*` sessions, so the browser never learns the service's
 * `websocket_address` (which the service accepts from anyone who knows it). The browser gets
 * `ws(s)://<proxy host><mount>/sessions/<handle>/ws?ticket=…`: the ticket is sealed (encrypted) with the
 * session secret and names the service's address, so any proxy instance with the same secret can relay it.
 * On upgrade the relay checks the page's origin (the `allowedOrigins` policy), the ticket and its expiry, and
 * that the session has not ended, then opens the service's socket and passes messages both ways (binary stays
 * binary), closing each side when the other closes. At most {@link MAX_RELAY_BUFFERED_BYTES} wait for each side:
 * when a side stops reading, it is dropped and the other is closed with {@link RELAY_OVERFLOW_CLOSE_CODE}.
 * Refusals are HTTP answers with `{detail}`: 403 (origin, ticket), 404 (path), 409 (session ended), 502 (the
 * service refused or could not be reached; its status when it answered 4xx).
 */
export function createWsRelay(deps: RelayDeps): {
  /** The browser's address for `upstreamAddress`; installs the upgrade listener on `server` (once per server). */
  address(handle: string, upstreamAddress: string, base: RelayBase, server: Server): Promise<string>;
} {
  let ws: WsModule | undefined;
  const servers = new WeakSet<Server>();
  const mounts = new Set<string>();
  const wsModule = () => {
    ws ??= loadPeer<WsModule>('ws', 'createAvatarProxy (WebSocket transports)');
    return ws;
  };
  let wss: WsNs.WebSocketServer | undefined;

  async function accept(req: IncomingMessage, socket: Duplex, head: Buffer, handleInPath: string, ticketText: string) {
    const site = { origin: header(req, 'origin'), fetchSite: header(req, 'sec-fetch-site'), self: `http://${req.headers.host ?? ''}` };
    await checkSite(deps.allowedOrigins, site, req);
    const t = (await deps.sealer.unseal('ws', ticketText)) as Partial<Ticket> | undefined;
    if (!t || t.h !== handleInPath || typeof t.w !== 'string' || typeof t.e !== 'number' || t.e < Date.now()) {
      throw new LiveAiError('forbidden', 'Invalid or expired WebSocket address: create a new session', { status: 403 });
    }
    const { sessionId } = await deps.sealer.open(t.h);
    if ((await deps.guard.endedReason(sessionId)) !== undefined) {
      throw new LiveAiError('conflict', 'This session has ended', { status: 409 });
    }
    const mod = wsModule();
    const upstream = new mod.WebSocket(t.w, { maxPayload: MAX_RELAY_FRAME_BYTES, handshakeTimeout: UPSTREAM_OPEN_MS });
    await new Promise<void>((resolve, reject) => {
      upstream.once('open', () => resolve());
      upstream.once('unexpected-response', (_r, res) => {
        const status = res.statusCode ?? 502;
        res.resume();
        upstream.terminate();
        reject(
          new LiveAiError('upstream_error', `The avatar service refused the WebSocket (HTTP ${status})`, {
            status: status >= 400 && status < 500 ? status : 502,
          }),
        );
      });
      upstream.once('error', () => reject(new LiveAiError('upstream_error', 'The avatar service could not be reached', { status: 502 })));
    });
    wss ??= new mod.WebSocketServer({ noServer: true, maxPayload: MAX_RELAY_FRAME_BYTES });
    wss.handleUpgrade(req, socket, head, (browser) => pipe(browser, upstream, mod.WebSocket.OPEN));
  }

  function onUpgrade(this: Server, req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = URL.parse(req.url ?? '', 'http://relay');
    const m = url ? ROUTE.exec(url.pathname) : null;
    if (!url || !m || !mounts.has(url.pathname.slice(0, m.index))) {
      // Another listener may serve this path; when there is none, answer instead of leaving the socket hanging.
      if (this.listenerCount('upgrade') === 1) refuse(socket, 404, 'Not found');
      return;
    }
    socket.on('error', () => socket.destroy());
    accept(req, socket, head, safeDecode(m[1]!), url.searchParams.get('ticket') ?? '').catch((e: unknown) => {
      const err = e instanceof LiveAiError ? e : new LiveAiError('upstream_error', 'WebSocket relay failed', { status: 502 });
      deps.log.warn({ status: err.status, code: err.code }, 'avatar proxy refused a WebSocket');
      refuse(socket, err.status ?? 502, err.message);
    });
  }

  return {
    async address(handle, upstreamAddress, base, server) {
      wsModule();
      mounts.add(base.mount);
      if (!servers.has(server)) {
        servers.add(server);
        server.on('upgrade', onUpgrade);
      }
      const ticket = await deps.sealer.seal('ws', { h: handle, w: upstreamAddress, e: Date.now() + deps.lifetimeMs + TICKET_SLACK_MS });
      return `${base.scheme}://${base.host}${base.mount}/sessions/${encodeURIComponent(handle)}/ws?ticket=${encodeURIComponent(ticket)}`;
    },
  };
}

function pipe(browser: WsNs.WebSocket, upstream: WsNs.WebSocket, OPEN: number): void {
  // Set once the relay ends the pair itself: the closes that follow must not overwrite its close code.
  let overflowed = false;
  /** Sends to `to` unless that would hold more than the limit for it; then drops `to` and closes `from`. */
  const forward = (from: WsNs.WebSocket, to: WsNs.WebSocket, reason: string) => (data: WsNs.RawData, isBinary: boolean) => {
    if (to.readyState !== OPEN) return;
    if (to.bufferedAmount + byteLength(data) > MAX_RELAY_BUFFERED_BYTES) {
      if (overflowed) return;
      overflowed = true;
      to.terminate();
      if (from.readyState === OPEN) from.close(RELAY_OVERFLOW_CLOSE_CODE, reason);
      return;
    }
    to.send(data, { binary: isBinary });
  };
  browser.on('message', forward(browser, upstream, 'Relay buffer full: the avatar service is not reading'));
  upstream.on('message', forward(upstream, browser, 'Relay buffer full: the browser is not reading'));
  const closeOther = (other: WsNs.WebSocket) => (code: number, reason: Buffer) => {
    if (overflowed) return;
    if (other.readyState === OPEN) other.close(sendable(code), reason);
    else other.terminate();
  };
  browser.on('close', closeOther(upstream));
  upstream.on('close', closeOther(browser));
  browser.on('error', () => upstream.terminate());
  upstream.on('error', () => browser.terminate());
}

const byteLength = (data: WsNs.RawData): number =>
  Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;

/** A close code that may be sent in a close frame (1005/1006/1015 and unassigned ones only describe a closure). */
const sendable = (code: number) =>
  code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999) ? code : 1000;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
};

function refuse(socket: Duplex, status: number, detail: string): void {
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Gateway'}\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
