import type { Request, RequestHandler } from 'express';
import type { EmulatorContext } from '../context';
import type { Account } from '../store';
import { httpError } from './errors';

const accounts = new WeakMap<Request, Account>();

/** Detail of 401 answers ("a detail stating an invalid API key"). */
export const invalidKeyDetail = (header: string | undefined): string =>
  header === undefined || header === ''
    ? 'Invalid API key: the X-API-Key header is missing'
    : 'Invalid API key: the X-API-Key header is not a known key';

/** Account of the `X-API-Key` header, `null` when absent, `undefined` when present but unknown. */
export function keyAccount(ctx: EmulatorContext, req: Request): Account | null | undefined {
  const key = req.get('x-api-key');
  if (key === undefined || key === '') return null;
  return ctx.store.accounts.get(key);
}

/**
 * Requires a known `X-API-Key` → 401 `{detail}` otherwise.
 * @param detail fixed 401 detail (leave-meeting uses its own text).
 */
export const requireApiKey =
  (ctx: EmulatorContext, detail?: string): RequestHandler =>
  (req, _res, next) => {
    const account = keyAccount(ctx, req);
    if (!account) throw httpError(401, detail ?? invalidKeyDetail(req.get('x-api-key')));
    accounts.set(req, account);
    next();
  };

/** The account `requireApiKey` admitted. */
export function accountOf(req: Request): Account {
  const a = accounts.get(req);
  if (!a) throw new Error('accountOf called without requireApiKey');
  return a;
}
