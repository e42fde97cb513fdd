import type { MediaTransport } from '../../core/index';
import { livekitServerUrl } from '../../shared/room-url';
import type { ProxyLog } from '../logging';

/** How long a browser may reuse a known answer, in seconds. */
const KNOWN_MAX_AGE_S = 300;

/** The `GET /transport` answer. */
export interface TransportHintBody {
  transport: MediaTransport | null;
  /** rtc-a only: the LiveKit server of the hosted rooms (scheme, host, port, path; nothing else). */
  server_url?: string;
}

/**
 * The transport of the hosted rooms this proxy creates, advertised at `GET /transport` as `{"transport": "rtc-a"}`
 * (or `"rtc-b"`, or `null` while unknown) so a page that registered several transports can fetch the right one
 * before the create call answers. For `rtc-a` it may add `server_url`, the LiveKit server those rooms are on, so the
 * page can warm its connection to it before the click. Known from the `roomTransport` / `roomServerUrl` options,
 * else learned from the room URL of the last room the service created. The answer holds nothing else: no key, room,
 * token, query or session. A LiveKit URL with a path is advertised only once two rooms agree on it, since a path
 * could name the room; a Daily (`rtc-b`) room URL always names its room and is never advertised.
 */
export interface TransportHint {
  /**
   * Notes a room the service just created: its transport and its room URL (the server is learned from it); warns
   * once when it contradicts the options.
   */
  learn(transport: MediaTransport, roomUrl: string | null | undefined): void;
  /** Status, JSON body and headers of the `GET /transport` answer. */
  reply(): { status: 200; body: TransportHintBody; headers: Record<string, string> };
}

export function createTransportHint(
  configured: { roomTransport?: MediaTransport | undefined; roomServerUrl?: string | undefined },
  log: ProxyLog,
): TransportHint {
  const configuredServer = livekitServerUrl(configured.roomServerUrl);
  let known: MediaTransport | null = configured.roomTransport ?? (configuredServer ? 'rtc-a' : null);
  let server = known === 'rtc-a' ? configuredServer : null;
  /** A learned server URL with a path, seen once: advertised when the next room names it again. */
  let candidate: string | null = null;
  const warned = new Set<string>();
  const warnOnce = (key: string, fields: object, message: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    log.warn(fields, message);
  };
  return {
    learn(transport, roomUrl) {
      if (transport !== known) {
        if (configured.roomTransport)
          warnOnce(
            'transport',
            { roomTransport: configured.roomTransport, transport },
            'the roomTransport option does not match the rooms the service creates; GET /transport now advertises the service’s',
          );
        known = transport;
      }
      const learned = livekitServerUrl(roomUrl);
      if (transport !== 'rtc-a' || !learned) {
        server = candidate = null;
        return;
      }
      if (learned === server) return;
      if (new URL(learned).pathname !== '/' && learned !== candidate) {
        candidate = learned;
        return;
      }
      if (configuredServer)
        warnOnce(
          'server',
          {},
          'the roomServerUrl option does not match the rooms the service creates; GET /transport now advertises the service’s',
        );
      server = learned;
      candidate = null;
    },
    reply() {
      return {
        status: 200,
        body: { transport: known, ...(known === 'rtc-a' && server ? { server_url: server } : {}) },
        // Known: the same for every visitor, reusable for a while. Unknown: ask again next time.
        headers: { 'cache-control': known ? `public, max-age=${KNOWN_MAX_AGE_S}` : 'no-store', vary: 'Origin' },
      };
    },
  };
}
