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

/**
 * The LiveKit server a `ws://` or `wss://` room URL points at, as `scheme://host[:port][/path]`: the user name,
 * password, query and fragment (which may carry a room name or a token) are dropped, and so is a trailing `/`.
 * Null for anything that is not a ws(s) URL. A URL already in this form comes back unchanged.
 */
export function livekitServerUrl(url: string | null | undefined): string | null {
  if (transportOfRoomUrl(url) !== 'rtc-a') return null;
  let u: URL;
  try {
    u = new URL(url!);
  } catch {
    return null;
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}
