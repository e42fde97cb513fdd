import { BlockList, isIP } from 'node:net';
import { LiveAiError } from '../core/errors';

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
 * (see the option's docs). Uses Node's `BlockList` for subnets.
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
      return normal(hops[Math.max(0, at)]);
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
    while (at !== undefined && trusted(at) && hops.length > 0) at = normal(hops.pop());
    return at;
  };
}

function entries(xff: string | null | undefined): string[] {
  return (xff ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; anything that is not an address → undefined (so it can never pick a bucket). */
function normal(a: string | undefined): string | undefined {
  if (a === undefined) return undefined;
  const v = a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
  return isIP(v) === 0 ? undefined : v;
}

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
