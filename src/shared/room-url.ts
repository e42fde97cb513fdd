/** The media transports a room URL can name. */
export type RoomTransport = 'rtc-a' | 'rtc-b';

/**
 * The transport of a room URL: a `ws://` or `wss://` URL is an `rtc-a` (LiveKit) server, an `http://` or
 * `https://` URL an `rtc-b` (Daily) room; anything else (or no URL) is null.
 */
export function transportOfRoomUrl(url: string | null | undefined): RoomTransport | null {
  if (!url) return null;
  const scheme = url.slice(0, Math.max(0, url.indexOf(':'))).toLowerCase();
  if (scheme === 'ws' || scheme === 'wss') return 'rtc-a';
  if (scheme === 'http' || scheme === 'https') return 'rtc-b';
  return null;
}
