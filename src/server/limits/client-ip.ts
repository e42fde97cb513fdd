import { Address6 } from 'ip-address';
import { AddressList as BlockList, isIP, sha256Hex } from './ip-match';
import { LiveAiError } from '../../core/index';
import type { ProxyLog } from '../logging';

/** Named groups of addresses accepted in a `trustProxy` list. */
const NAMED: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
};

/** `(peer, forwardedFor)` → client address, or undefined when neither gives one. */
export type ClientAddress = (peer: string | undefined, forwardedFor: string | null | undefined) => string | undefined;

/**
 * Builds the rule that finds the client's address from the TCP peer and `X-Forwarded-For`, per `trustProxy`
 * (see the option's docs).
 * @throws LiveAiError `invalid_request` for an entry that is neither an address, a CIDR subnet nor a group name.
 */
export function clientAddress(trust: false | number | readonly string[] | undefined): ClientAddress {
  if (trust === undefined || trust === false || trust === 0) return (peer) => normal(peer);
  if (typeof trust === 'number') {
    return (peer, xff) => {
      const hops = [...entries(xff)];
      // The nearest of the `trust` proxies is the peer (when the platform tells it); each appended one entry.
      const at = hops.length - trust;
      if (peer !== undefined) hops.push(peer);
      return entry(hops[Math.max(0, at)]);
    };
  }
  const list = new BlockList();
  for (const raw of trust) {
    const named = NAMED[raw.toLowerCase()];
    if (named) for (const [a, p, t] of named) list.addSubnet(a, p, t);
    else {
      const [addr = '', prefix] = raw.split('/');
      const type = isIP(addr);
      if (type === 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
        throw new LiveAiError(
          'invalid_request',
          `trustProxy: ${JSON.stringify(raw.slice(0, 60))} is not an address, a CIDR subnet or loopback/private/linklocal`,
        );
      }
      const family = type === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) list.addAddress(addr, family);
      else list.addSubnet(addr, Number(prefix), family);
    }
  }
  const trusted = (a: string) => {
    const type = isIP(a);
    return type !== 0 && list.check(a, type === 4 ? 'ipv4' : 'ipv6');
  };
  return (peer, xff) => {
    const hops = [...entries(xff)];
    let at = normal(peer);
    while (at !== undefined && trusted(at) && hops.length > 0) at = entry(hops.pop());
    return at;
  };
}

/** A forwarded entry the rule picked: its address, or 400 when a proxy wrote something that is not one. */
function entry(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const a = normal(raw);
  if (a === undefined) {
    throw new LiveAiError('invalid_request', 'X-Forwarded-For holds an entry that is not an IP address', { status: 400 });
  }
  return a;
}

function entries(xff: string | null | undefined): string[] {
  return (xff ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * One address as proxies write it, normalised: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:443`,
 * `::ffff:1.2.3.4` (IPv4-mapped IPv6 is IPv4) → the bare address; anything that is not an address → undefined
 * (so it can never pick a bucket). A port is read with the WHATWG URL parser, and only when the text is exactly
 * `address:port` (no shorthand like `1.2.3`).
 */
export function normalAddress(a: string | undefined): string | undefined {
  if (a === undefined) return undefined;
  let v = a.trim();
  if (isIP(v) === 0) {
    let url: URL | undefined;
    try {
      url = new URL(`http://${v}`);
    } catch {
      return undefined;
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (url.port === '' || isIP(host) === 0 || `${url.hostname}:${url.port}`.toLowerCase() !== v.toLowerCase()) return undefined;
    v = host;
  }
  if (isIP(v) === 6) {
    const six = new Address6(v);
    if (six.isMapped4()) return six.to4().correctForm();
  }
  return v;
}
const normal = normalAddress;

/**
 * The key of a client's address in every per-client limit: an IPv4 address as is; an IPv6 address grouped by its
 * `/ipv6Subnet` network (default 64: one host usually holds a whole /64), written like express-rate-limit's
 * `ipKeyGenerator` (`2001:db8:1:2::/64`). `false` or 128 keeps whole addresses.
 */
export function addressKey(address: string, ipv6Subnet: number | false = DEFAULT_IPV6_SUBNET): string {
  if (isIP(address) !== 6 || ipv6Subnet === false || ipv6Subnet >= 128) return address;
  return new Address6(`${address}/${ipv6Subnet}`).networkForm();
}

/** IPv6 clients are grouped by this prefix length by default (see `ipv6Subnet`). */
export const DEFAULT_IPV6_SUBNET = 64;

/**
 * Logs once (warning) when requests come from a loopback or private peer with `X-Forwarded-For` while
 * `trustProxy` is off: the app probably sits behind a reverse proxy, and every client then shares the proxy's
 * address (and its limits).
 */
export function forwardedWarning(trust: false | number | readonly string[] | undefined, warn: (obj: object, msg: string) => void) {
  if (trust !== undefined && trust !== false && trust !== 0) return () => {};
  const local = new BlockList();
  for (const group of ['loopback', 'private']) for (const [a, p, t] of NAMED[group]!) local.addSubnet(a, p, t);
  let warned = false;
  return (peer: string | undefined, xff: string | null | undefined) => {
    if (warned || !xff) return;
    const a = normal(peer);
    if (a === undefined || !local.check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6')) return;
    warned = true;
    warn(
      { peer: a },
      'requests arrive through a proxy (X-Forwarded-For from a local address) ' +
        'but trustProxy is not set: all clients share that address and its limits',
    );
  };
}

/** Where one request comes from, as the adapter sees it. */
export interface ClientSource<Req> {
  req: Req;
  /** The TCP peer's address (Express: the socket's; Fetch: the platform's second argument). */
  peer: string | undefined;
  /** `X-Forwarded-For`, read per `trustProxy`. */
  forwardedFor: string | null | undefined;
  /** The Fetch handler's `clientIp(request, platform)` result, when that option is set. */
  own?: () => string | null | undefined;
}

/** What {@link clientIdentity} needs from the options. */
export interface ClientIdentityOptions<Req> {
  trustProxy?: false | number | readonly string[];
  ipv6Subnet?: number | false;
  clientKey?: (req: Req) => string | null | undefined | Promise<string | null | undefined>;
  /** The factory's name for log lines: `createAvatarProxy` or `createAvatarHandler`. */
  factory: string;
}

/** A client token for the per-client limits whose owner the proxy cannot tell: 503, the log says what to set. */
export class ClientUnknown extends LiveAiError {
  constructor() {
    super(
      'upstream_error',
      'This server cannot tell its visitors apart, so it does not start avatar sessions; its log says what to configure',
      { status: 503 },
    );
  }
}

/**
 * A visitor whom `clientKey` names no user where the platform gives no address: 403. The app counts its limits per
 * signed-in user, so a visitor without one cannot be counted.
 */
export class SignInRequired extends LiveAiError {
  constructor() {
    super('forbidden', 'Sign in to start an avatar session: this server counts its limits per signed-in user', { status: 403 });
  }
}

/**
 * The key of the client in every per-client limit, in this order:
 * 1. `clientKey(req)` when it gives a non-empty string (your own user id): `user:<it>` (long ones hashed);
 * 2. the Fetch handler's `clientIp` result when it gives something, which must be an address;
 * 3. the TCP peer's address with `X-Forwarded-For` read per `trustProxy`.
 * An address is grouped per `ipv6Subnet` (see {@link addressKey}). A `clientIp` result that is not an address is
 * ignored and reported once (warning). With no key at all the request is refused: with `clientKey` set, with 403
 * {@link SignInRequired} (a visitor who is not signed in; one warning line); without it, with 503 {@link ClientUnknown}
 * and an error line logged once, naming the options to set: every client in one shared bucket would let one of them
 * lock out all the others.
 * @throws LiveAiError 400 when a trusted proxy's `X-Forwarded-For` entry is not an address; {@link SignInRequired};
 *   {@link ClientUnknown}.
 */
export function clientIdentity<Req>(o: ClientIdentityOptions<Req>, log: ProxyLog): (source: ClientSource<Req>) => Promise<string> {
  const address = clientAddress(o.trustProxy);
  const hint = forwardedWarning(o.trustProxy, (obj, m) => log.warn(obj, m));
  const subnet = o.ipv6Subnet ?? DEFAULT_IPV6_SUBNET;
  const reported = new Set<string>();
  const once = (what: string, report: () => void) => {
    if (reported.has(what)) return;
    reported.add(what);
    report();
  };
  return async ({ req, peer, forwardedFor, own }) => {
    if (o.clientKey) {
      const user = await o.clientKey(req);
      if (typeof user === 'string' && user !== '') {
        return `user:${user.length > 128 ? await sha256Hex(user) : user}`;
      }
    }
    let ip: string | undefined;
    const given = own?.();
    if (given !== undefined && given !== null && given !== '') {
      ip = normal(String(given));
      if (ip === undefined) {
        once('clientIp', () =>
          log.warn(
            { factory: o.factory },
            'clientIp returned something that is not one IP address; it is ignored (return one address, or null when unknown)',
          ),
        );
      }
    }
    if (ip === undefined) {
      hint(peer, forwardedFor);
      ip = address(peer, forwardedFor);
    }
    if (ip !== undefined) return addressKey(ip, subnet);
    // The app counts its signed-in users and this visitor is not one: a visitor to refuse, not a misconfiguration.
    if (o.clientKey) {
      once('anonymous', () =>
        log.warn(
          { factory: o.factory },
          `${o.factory}: a visitor without a user (clientKey gave none) and no client address: such create and list ` +
            'requests are refused with 403 (require a login with authorize, or give the handler the client address)',
        ),
      );
      throw new SignInRequired();
    }
    once('none', () =>
      log.error(
        { factory: o.factory },
        `${o.factory} cannot tell clients apart: the platform gave no client address. Create and list requests are ` +
          'refused with 503 until you set clientKey (your signed-in user), pass the address ' +
          '(handler(request, { remoteAddress })) or set clientIp to a header your platform itself sets',
      ),
    );
    throw new ClientUnknown();
  };
}
