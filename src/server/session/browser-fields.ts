import type { AvatarProxyOptions, MaybePromise } from '../options';

/**
 * A policy that, unless the operator set it, follows `agents`: open without `agents`, closed with a list, and with a
 * function the answer of `agents(undefined, req)` (whether visitors may bring an avatar of their own).
 */
export async function followsAgents<Req>(
  policy: boolean | ((req: Req) => MaybePromise<boolean>) | undefined,
  agents: AvatarProxyOptions<Req>['agents'],
  req: Req,
): Promise<boolean> {
  if (policy !== undefined) return typeof policy === 'function' ? policy(req) : policy;
  return agents === undefined || (typeof agents === 'function' && (await agents(undefined, req)));
}
