import type { MediaTransport } from '../schemas';
import { lastTransport, registeredTransports } from './load';

const hints = new Map<string, Promise<MediaTransport | null>>();

/**
 * The transport of the hosted rooms of the proxy at `proxyUrl`, as it advertises it (`GET {proxyUrl}/transport`
 * → `{"transport": "rtc-a"}`). Asked once per `proxyUrl` for the life of the page; null when the proxy does not
 * know (or is older and has no such route, or cannot be reached). Never rejects.
 */
export function proxyTransportHint(
  proxyUrl: string,
  fetchImpl: typeof fetch | undefined = globalThis.fetch,
): Promise<MediaTransport | null> {
  const url = `${proxyUrl.replace(/\/+$/, '')}/transport`;
  let hint = hints.get(url);
  if (!hint) {
    hint = ask(url, fetchImpl);
    hints.set(url, hint);
  }
  return hint;
}

async function ask(url: string, fetchImpl: typeof fetch | undefined): Promise<MediaTransport | null> {
  if (!fetchImpl) return null;
  try {
    const res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout?.(10_000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { transport?: unknown } | null;
    const t = body?.transport;
    return t === 'rtc-a' || t === 'rtc-b' ? t : null;
  } catch {
    return null;
  }
}

/**
 * The transport a hosted room of this proxy will need, so its adapter and SDK can be fetched before the create
 * call answers. In this order:
 * 1. an explicit `transport`;
 * 2. the only registered transport (nothing is asked);
 * 3. with several registered, the proxy's own word (`proxyTransportHint`), when it is registered;
 * 4. else the transport the last session on this origin joined (localStorage `liveai-kit.transport`).
 *
 * Null when none of these tell; never a transport the page did not register (except an explicit one).
 */
export async function predictRoomTransport(options: {
  transport?: MediaTransport;
  proxyUrl?: string;
  fetch?: typeof fetch;
}): Promise<MediaTransport | null> {
  if (options.transport) return options.transport;
  const kinds = registeredTransports();
  if (kinds.length <= 1) return kinds[0] ?? null;
  const hinted = options.proxyUrl ? await proxyTransportHint(options.proxyUrl, options.fetch) : null;
  if (hinted && kinds.includes(hinted)) return hinted;
  return lastTransport(kinds);
}
