import type { MediaTransport } from '../../core/index';
import type { ProxyLog } from '../logging';

/** How long a browser may reuse a known answer, in seconds. */
const KNOWN_MAX_AGE_S = 300;

/**
 * The transport of the hosted rooms this proxy creates, advertised at `GET /transport` as `{"transport": "rtc-a"}`
 * (or `"rtc-b"`, or `null` while unknown) so a page that registered several transports can fetch the right one
 * before the create call answers. Known from the `roomTransport` option, else learned from the room URL of the
 * last room the service created. The answer holds nothing else: no key, room, token or session.
 */
export interface TransportHint {
  /** Notes the transport of a room the service just created; warns once when it contradicts `roomTransport`. */
  learn(transport: MediaTransport): void;
  /** Status, JSON body and headers of the `GET /transport` answer. */
  reply(): { status: 200; body: { transport: MediaTransport | null }; headers: Record<string, string> };
}

export function createTransportHint(configured: MediaTransport | undefined, log: ProxyLog): TransportHint {
  let known = configured ?? null;
  let warned = false;
  return {
    learn(transport) {
      if (transport === known) return;
      if (configured && !warned) {
        warned = true;
        log.warn(
          { roomTransport: configured, transport },
          'the roomTransport option does not match the rooms the service creates; GET /transport now advertises the service’s',
        );
      }
      known = transport;
    },
    reply() {
      return {
        status: 200,
        body: { transport: known },
        // Known: the same for every visitor, reusable for a while. Unknown: ask again next time.
        headers: { 'cache-control': known ? `public, max-age=${KNOWN_MAX_AGE_S}` : 'no-store', vary: 'Origin' },
      };
    },
  };
}
