import type { MaybePromise } from '../options';

/** The `dailyRooms` option: Daily room hosts or room URLs a browser may name, or a function. */
export type DailyRoomPolicy<Req> = readonly string[] | ((roomUrl: string, req: Req) => MaybePromise<boolean>);

/**
 * Whether a browser may send the avatar to the Daily room `roomUrl` (its `rtc_b_url`). A list admits an https URL
 * whose host is listed (`acme.daily.co`), or that is a listed room URL (`https://acme.daily.co/live-show`, compared
 * without query, fragment or trailing slash). No policy: no room.
 */
export async function dailyRoomAllowed<Req>(policy: DailyRoomPolicy<Req> | undefined, roomUrl: string, req: Req): Promise<boolean> {
  if (policy === undefined) return false;
  if (typeof policy === 'function') return (await policy(roomUrl, req)) === true;
  const url = URL.parse(roomUrl);
  if (!url || url.protocol !== 'https:' || url.username || url.password) return false;
  const room = roomKey(url);
  return policy.some((entry) => {
    if (!entry.includes('/')) return entry.toLowerCase() === url.host;
    const allowed = URL.parse(entry);
    return allowed !== null && roomKey(allowed) === room;
  });
}

const roomKey = (u: URL) => `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
