import { Address4, Address6 } from 'ip-address';

/*
 * Address checks in plain JavaScript, so that the proxy runs where `node:net` does not exist (Cloudflare Workers,
 * Vercel Edge): `isIP` accepts exactly what Node's `net.isIP` accepts (the same patterns), and `AddressList` answers
 * like Node's `BlockList` for the addresses and subnets a `trustProxy` list holds.
 */

const V4_SEG = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const V4 = `(?:${V4_SEG}\\.){3}${V4_SEG}`;
const V6_SEG = '(?:[0-9a-fA-F]{1,4})';
const IPV4 = new RegExp(`^${V4}$`);
const IPV6 = new RegExp(
  '^(?:' +
    `(?:${V6_SEG}:){7}(?:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){6}(?:${V4}|:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){5}(?::${V4}|(?::${V6_SEG}){1,2}|:)|` +
    `(?:${V6_SEG}:){4}(?:(?::${V6_SEG}){0,1}:${V4}|(?::${V6_SEG}){1,3}|:)|` +
    `(?:${V6_SEG}:){3}(?:(?::${V6_SEG}){0,2}:${V4}|(?::${V6_SEG}){1,4}|:)|` +
    `(?:${V6_SEG}:){2}(?:(?::${V6_SEG}){0,3}:${V4}|(?::${V6_SEG}){1,5}|:)|` +
    `(?:${V6_SEG}:){1}(?:(?::${V6_SEG}){0,4}:${V4}|(?::${V6_SEG}){1,6}|:)|` +
    `(?::(?:(?::${V6_SEG}){0,5}:${V4}|(?::${V6_SEG}){1,7}|:))` +
    ')(?:%[0-9a-zA-Z-.:]{1,})?$',
);

/** 4 for an IPv4 address, 6 for an IPv6 one (a zone `%eth0` allowed), else 0: as Node's `net.isIP`. */
export function isIP(s: string): 0 | 4 | 6 {
  return IPV4.test(s) ? 4 : IPV6.test(s) ? 6 : 0;
}

type Family = 'ipv4' | 'ipv6';

/** The 128-bit value of an IPv6 address (its zone dropped), or the 32-bit value of an IPv4 one. */
function valueOf(address: string, family: Family): bigint {
  if (family === 'ipv4') return new Address4(address).bigInt();
  return new Address6(address.replace(/%.*$/, '')).bigInt();
}

/** A set of addresses and subnets with the part of Node's `BlockList` API the proxy uses. */
export class AddressList {
  private readonly nets: { family: Family; base: bigint; mask: bigint }[] = [];
  addAddress(address: string, family: Family): void {
    this.addSubnet(address, family === 'ipv4' ? 32 : 128, family);
  }
  addSubnet(network: string, prefix: number, family: Family): void {
    const bits = family === 'ipv4' ? 32 : 128;
    const p = Math.max(0, Math.min(bits, prefix));
    const all = (1n << BigInt(bits)) - 1n;
    const mask = all ^ ((1n << BigInt(bits - p)) - 1n);
    this.nets.push({ family, base: valueOf(network, family) & mask, mask });
  }
  /**
   * True when `address` of `family` is in one of the subnets. As in Node, an IPv4 address also matches IPv6 subnets
   * as its IPv4-mapped form (`::ffff:a.b.c.d`), and an IPv4-mapped IPv6 address also matches IPv4 subnets.
   */
  check(address: string, family: Family): boolean {
    if (isIP(address) !== (family === 'ipv4' ? 4 : 6)) return false;
    const v = valueOf(address, family);
    const v4 = family === 'ipv4' ? v : v >> 32n === MAPPED_PREFIX ? v & 0xffffffffn : undefined;
    const v6 = family === 'ipv6' ? v : (MAPPED_PREFIX << 32n) | v;
    return this.nets.some((n) => {
      const x = n.family === 'ipv4' ? v4 : v6;
      return x !== undefined && (x & n.mask) === n.base;
    });
  }
}

/** The upper 96 bits of an IPv4-mapped IPv6 address (`::ffff:0:0/96`). */
const MAPPED_PREFIX = 0xffffn;

/** SHA-256 of `text` as lower-case hex, with Web Crypto (every server runtime has it). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
