import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { EmulatorContext } from '../context';

/**
 * True when the request's `Host` names this server: any IP address (a DNS-rebinding page cannot produce one),
 * `localhost`, the name it listens on, or one of `allowedHosts`. Other names are refused, so a page on
 * `evil.example` that re-points its DNS at 127.0.0.1 cannot read `/__emulator/accounts` or call the service.
 */
export function hostAllowed(ctx: EmulatorContext, req: IncomingMessage): boolean {
  const raw = req.headers.host;
  if (!raw) return false;
  let name: string;
  try {
    name = new URL(`http://${raw}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (isIP(name) !== 0 || name === 'localhost' || name === ctx.options.host.toLowerCase()) return true;
  return ctx.options.allowedHosts.some((h) => h.toLowerCase() === name);
}

/** Express middleware: 403 `{detail}` for a foreign `Host`. */
export function hostCheck(ctx: EmulatorContext): RequestHandler {
  return (req, res, next) => {
    if (hostAllowed(ctx, req)) return next();
    res.status(403).json({ detail: 'Host not allowed: this local service answers only to its own address (see allowedHosts)' });
  };
}
