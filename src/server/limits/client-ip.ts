import { Address6 } from 'ip-address';
import proxyaddr from 'proxy-addr';
import { AddressList as BlockList, isIP, sha256Hex } from './ip-match';
import { LiveAiError } from '../../core/index';
import type { ProxyLog } from '../logging';

/** Named groups of addresses accepted in a `trustProxy` list (proxy-addr's names; `private` is its `uniquelocal`). */
const NAMED: Record<string, string> = { loopback: 'loopback', private: 'uniquelocal', linklocal: 'linklocal' };

/** `(peer, forwardedFor)` → client address, or undefined when neither gives one. */
export type ClientAddress = (peer: string | undefined, forwardedFor: string | null | undefined) => string | undefined;

/**
 * Builds the rule that finds the client's address from the TCP peer and `X-Forwarded-For`, per `trustProxy`
 * (see the option's docs). The walk from the peer back along `X-Forwarded-For` is proxy-addr's (the one Express
 * uses), over entries normalised first (see {@link normalAddress}), so a trusted proxy that writes `ip:port` or
 * another spelling of an address is read as that address.
 * @throws LiveAiError `invalid_request` for an entry that is neither an address, a CIDR subnet nor a group name.
 */
export function clientAddress(trust: false | number | readonly string[] | undefined): ClientAddress {
  if (trust === undefined || trust === false || trust === 0) return (peer) => normal(peer);
  // A number: the nearest `trust` hops (the peer first) are proxies, each having appended one entry.
  const trusted = typeof trust === 'number' ? (_a: string, i: number) => i < trust : compileTrust(trust);
  return (peer, xff) => {
    const hops = entries(xff).map((e) => normal(e) ?? e);
    const req = { socket: { remoteAddress: normal(peer) }, headers: { 'x-forwarded-for': hops.join(', ') } };
    const picked = proxyaddr(req as never, trusted);
    return picked === undefined ? undefined : entry(picked);
  };
}

/** proxy-addr's trust function for a `trustProxy` list. @throws LiveAiError naming the first bad entry. */
function compileTrust(list: readonly string[]): (addr: string, i: number) => boolean {
  const names = list.map((raw) => {
    const name = NAMED[raw.toLowerCase()] ?? raw;
    try {
      proxyaddr.compile(name);
      return name;
    } catch {
      throw new LiveAiError(
        'invalid_request',
        `trustProxy: ${JSON.stringify(raw.slice(0, 60))} is not an address, a CIDR subnet or loopback/private/linklocal`,
      );
    }
  });
  const compiled = proxyaddr.compile(names);
  // The peer is unknown (undefined) when the platform does not say it: never a trusted proxy.
  return (addr, i) => addr !== undefined && compiled(addr, i);
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

const V4_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/;
const V6_BRACKETS = /^\[([^\]]+)\](?::(\d{1,5}))?$/;

/**
 * One address as proxies write it, in one spelling: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
 * `[2001:db8::1]:443`, `[2001:DB8:0::1]`, `fe80::1%eth0` → the bare address, IPv6 in its canonical form (lower
 * case, shortest, no zone id), IPv4-mapped IPv6 (`::ffff:1.2.3.4`, `::ffff:102:304`) as IPv4; anything that is not
 * an address → undefined (so it can never pick a bucket).
 */
export function normalAddress(a: string | undefined): string | undefined {
  if (a === undefined) return undefined;
  let v = a.trim();
  const hostOnly = V4_PORT.exec(v) ?? V6_BRACKETS.exec(v);
  if (hostOnly) {
    if (hostOnly[2] !== undefined && Number(hostOnly[2]) > 65535) return undefined;
    v = hostOnly[1]!;
  }
  const type = isIP(v);
  if (type === 4) return v;
  if (type !== 6) return undefined;
  let six: Address6;
  try {
    six = new Address6(v);
  } catch {
    return undefined;
  }
  return six.isMapped4() ? six.to4().correctForm() : six.correctForm();
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

/** Loopback and private subnets: a peer there that sends `X-Forwarded-For` is probably a reverse proxy. */
const LOCAL: [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
];

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
  for (const [a, p, t] of LOCAL) local.addSubnet(a, p, t);
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
