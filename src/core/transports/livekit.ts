/**
 * liveai-kit/livekit: the LiveKit transport (`rtc-a` rooms, `ws://` / `wss://` room URLs), on `livekit-client`.
 * Importing this entry registers it, so every session on the page can join LiveKit rooms:
 *
 * ```ts
 * import 'liveai-kit/livekit'; // npm i livekit-client
 * ```
 *
 * The adapter and livekit-client load with `import()` when the first LiveKit room is joined, not with the page.
 *
 * @module liveai-kit/livekit
 */
import { registerTransport, type TransportModule } from './choose';

// The types of this entry's transport object (`registerTransport` takes it; its `load` gives the adapter).
export type * from './entry-types';

/** How the LiveKit transport retries a dropped room (deadline and backoff, ms); override per session with `reconnectDeadlineMs`. */
export { DEFAULT_RECONNECT_POLICY, type ReconnectPolicy } from './livekit/policy';

/**
 * The LiveKit (`rtc-a`) transport; registered on import. Pass it to `registerTransport` again after a reset.
 * @public
 */
export const livekitTransport: TransportModule = {
  kind: 'rtc-a',
  load: () =>
    import('./livekit/adapter').then((m) => {
      // Loaded ahead of the click (a session's prefetch): its Room is made while the page is idle.
      m.prepareRoom();
      return () => m.createLiveKitTransport();
    }),
  // The LiveKit server is known before the click (an attached room, the proxy's hint): warm the connection to it.
  prepare: (url) => {
    import('./livekit/adapter').then((m) => m.prepareConnection(url)).catch(() => undefined);
  },
};

registerTransport(livekitTransport);
