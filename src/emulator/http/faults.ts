import type { RequestHandler } from 'express';
import { setTimeout as delay } from 'node:timers/promises';
import type { EmulatorContext } from '../context';
import { httpError } from './errors';

/**
 * Applies the current faults (see `Faults`) to a `/liveai/...` request: waits `latencyMs`, destroys the socket
 * with probability `dropRate`, answers 500 `{detail}` with probability `failRate` (never on control and
 * leave-meeting, which the service lists without a 500).
 */
export const faultInjection =
  (ctx: EmulatorContext): RequestHandler =>
  async (req, _res, next) => {
    const f = ctx.faults;
    if (f.latencyMs > 0) await delay(f.latencyMs);
    if (f.dropRate > 0 && Math.random() < f.dropRate) {
      req.socket.destroy();
      return;
    }
    const exempt = /\/(control|leave-meeting)\/?$/.test(req.path);
    if (!exempt && f.failRate > 0 && Math.random() < f.failRate)
      throw httpError(500, 'injected fault: the emulator failed this request on purpose (failRate)');
    next();
  };
