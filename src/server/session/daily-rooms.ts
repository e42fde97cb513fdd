import { LiveAiError } from '../../core/index';
import type { MaybePromise } from '../options';

/** The `dailyRooms` option: Daily room hosts or room URLs a browser may name, or a function. */
export type DailyRoomPolicy<Req> = readonly string[] | ((roomUrl: string, req: Req) => MaybePromise<boolean>);

/** Longest room URL a browser may send, in characters. */
const MAX_ROOM_URL_CHARS = 2048;
/** Percent-encoded `/`, `\`, `.` and NUL: other parsers decode them into path separators or dot segments. */
const ENCODED_SEPARATOR = /%(2f|5c|2e|00)/i;

/**
 * The room URL a browser sent, if it is already in the normal form the WHATWG URL parser gives it (so every
 * parser on the way, the service's included, reads the same host and path), else a 400: a user name or password
 * (`https://acme.daily.co\@evil.test/r1`, `https://x@acme.daily.co/r1`), a backslash, a dot segment
 * (`/other-room/../live-show`), a percent-encoded slash, backslash or dot, an upper-case or non-ASCII host,
 * white space or control characters. What it returns is exactly what was sent, so the service gets the URL that
 * was checked.
 * @throws LiveAiError `invalid_request` (400).
 */
export function normalRoomUrl(roomUrl: string): string {
  const refuse = (why: string) =>
    new LiveAiError('invalid_request', `rtc_b_url must be a room URL in normal form like https://acme.daily.co/room: ${why}`, {
      status: 400,
    });
  if (roomUrl.length > MAX_ROOM_URL_CHARS) throw refuse(`it is longer than ${MAX_ROOM_URL_CHARS} characters`);
  const url = URL.parse(roomUrl);
  if (!url) throw refuse('it is not a URL');
  if (url.username || url.password) throw refuse('it carries a user name or password');
  if (url.href !== roomUrl) {
    throw refuse(
      'no backslashes, dot segments (. or ..), white space or control characters, and a lower-case host ' +
        `(it reads as ${JSON.stringify(url.href.slice(0, 200))})`,
    );
  }
  if (ENCODED_SEPARATOR.test(url.pathname)) throw refuse('no percent-encoded slashes, backslashes or dots in its path');
  return url.href;
}

/**
 * Whether a browser may send the avatar to the Daily room `roomUrl` (its `rtc_b_url`). A list admits an https URL
 * whose host is listed (`acme.daily.co`), or that is a listed room URL (`https://acme.daily.co/live-show`, compared
 * without query, fragment or trailing slash). No policy: no room. A URL that is not in normal form is refused
 * (see {@link normalRoomUrl}) before any policy, a function's included, sees it.
 * @throws LiveAiError `invalid_request` (400) for a URL not in normal form.
 */
export async function dailyRoomAllowed<Req>(policy: DailyRoomPolicy<Req> | undefined, roomUrl: string, req: Req): Promise<boolean> {
  if (policy === undefined) return false;
  const normal = normalRoomUrl(roomUrl);
  if (typeof policy === 'function') return (await policy(normal, req)) === true;
  const url = new URL(normal);
  if (url.protocol !== 'https:') return false;
  const room = roomKey(url);
  return policy.some((entry) => {
    if (!entry.includes('/')) return entry.toLowerCase() === url.host;
    const allowed = URL.parse(entry);
    return allowed !== null && roomKey(allowed) === room;
  });
}

const roomKey = (u: URL) => `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
