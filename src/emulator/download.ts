import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Where image downloads (update-image `image_url`, `agent_image_url`) may go:
 * - `public` (default): public addresses only; loopback, link-local (cloud metadata), private, unspecified and
 *   multicast addresses are refused after DNS resolution, and the connection uses the address that was checked;
 * - `loopback`: loopback addresses only (tests, so that fuzzed URLs never leave the machine);
 * - `any`: everything (a local image server on your LAN, for example);
 * - a list of host names (`images.example.com`, `*.cdn.example`): only those, at public addresses.
 * The seed's own image URLs are always allowed.
 * @public
 */
export type ImageHosts = 'public' | 'loopback' | 'any' | readonly string[];

/** A download refused or failed; `message` is for the log, never for the browser. */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

const special = new BlockList();
for (const [a, p] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  special.addSubnet(a, p, 'ipv4');
for (const [a, p] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  special.addSubnet(a, p, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** `::ffff:1.2.3.4` → `1.2.3.4`. */
const unmapped = (a: string) => (/^::ffff:/i.test(a) && isIP(a.slice(7)) === 4 ? a.slice(7) : a);
const family = (a: string) => (isIP(a) === 6 ? 'ipv6' : 'ipv4');
export const isLoopbackAddress = (a: string): boolean => loopback.check(unmapped(a), family(unmapped(a)));
const isPublicAddress = (a: string): boolean => !special.check(unmapped(a), family(unmapped(a))) && !isLoopbackAddress(a);

function hostAllowed(policy: ImageHosts, hostname: string): boolean {
  if (typeof policy === 'string') return true;
  const h = hostname.toLowerCase();
  return policy.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1)) : h === p.toLowerCase()));
}

function addressAllowed(policy: ImageHosts, address: string): boolean {
  if (policy === 'any') return true;
  if (policy === 'loopback') return isLoopbackAddress(address);
  return isPublicAddress(address);
}

export interface DownloadOptions {
  policy: ImageHosts;
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed at most (each target is checked again). */
  maxRedirects: number;
}

/**
 * Downloads `url` under `options.policy`: http(s) only, no user:password, the host name allowed, every address
 * it resolves to allowed (and the connection made to that checked address, so DNS rebinding cannot slip in),
 * at most `maxRedirects` redirects (each checked the same way), and the body refused as soon as it passes
 * `maxBytes` while it streams in. @throws DownloadError with a reason for the log.
 */
export async function download(url: URL, options: DownloadOptions, trusted = false): Promise<Buffer> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await get(current, options, trusted && hop === 0, deadline);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= options.maxRedirects) throw new DownloadError(`more than ${options.maxRedirects} redirects`);
      current = new URL(res.headers.location, current);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new DownloadError(`HTTP ${status}`);
    }
    return readCapped(res, options.maxBytes);
  }
}

async function get(url: URL, options: DownloadOptions, trusted: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadError(`scheme ${url.protocol} not allowed`);
  if (url.username || url.password) throw new DownloadError('URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!trusted && !hostAllowed(options.policy, host)) throw new DownloadError(`host ${host} is not in the allow-list`);
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true }).catch((e: Error) => {
        throw new DownloadError(`cannot resolve ${host}: ${e.message}`);
      });
  const bad = addresses.find((a) => !trusted && !addressAllowed(options.policy, a.address));
  if (bad || addresses.length === 0) throw new DownloadError(`address ${bad?.address ?? 'none'} of ${host} is not allowed (imageHosts)`);
  const chosen = addresses[0]!;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      signal,
      headers: { accept: 'image/*' },
      // Connect to the address that was checked, whatever DNS says a moment later.
      lookup: (_h, _o, cb) => (cb as (e: null, a: string, f: number) => void)(null, chosen.address, chosen.family),
    });
    req.once('response', resolve);
    req.once('error', (e: Error) =>
      reject(new DownloadError(e.name === 'AbortError' ? `timed out after ${options.timeoutMs} ms` : e.message)),
    );
    req.end();
  });
}

function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(new DownloadError(`larger than ${maxBytes} bytes (Content-Length ${declared})`));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new DownloadError(`larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(c);
    });
    res.once('end', () => resolve(Buffer.concat(chunks)));
    res.once('error', (e: Error) => reject(new DownloadError(e.message)));
    res.once('aborted', () => reject(new DownloadError('the download was cut off')));
  });
}
