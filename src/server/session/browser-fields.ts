import { LiveAiError, type ProxySessionRequest } from '../../core/index';
import type { AvatarProxyOptions, MaybePromise, ResolvedOptions } from '../options';

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

/**
 * What a browser may set on `POST /sessions` beyond the avatar, the transport and the Daily room (checked elsewhere),
 * and what the operator fixes:
 * - `agent_prompt`, `agent_idle_prompt`: only when `promptChanges` allows (the same policy as the prompt control events);
 * - `model` (and so `aspect_ratio`, which needs it): only a model `models` allows;
 * - `idle_timeout`: at most `idleTimeoutSeconds`; without that option a browser may not set it. The operator's value
 *   is sent when the browser sends none.
 * @returns the fields to send to the service.
 * @throws LiveAiError 403 `forbidden` naming the field and the option that refuses it.
 */
export async function checkBrowserFields<Req>(
  options: ResolvedOptions<Req>,
  fields: ProxySessionRequest,
  req: Req,
): Promise<ProxySessionRequest> {
  const prompt = (['agent_prompt', 'agent_idle_prompt'] as const).find((field) => fields[field] !== undefined);
  if (prompt && !(await followsAgents(options.promptChanges, options.agents, req))) {
    throw forbidden(`${prompt}: the avatar's prompts are set by this site, not by the browser (see the promptChanges option)`);
  }
  if (fields.model !== undefined && !(await modelAllowed(options, fields.model, req))) {
    throw forbidden(`model: ${JSON.stringify(fields.model.slice(0, 40))} is not a model this site offers (see the models option)`);
  }
  const max = options.idleTimeoutSeconds;
  if (fields.idle_timeout !== undefined && (max === undefined || fields.idle_timeout > max)) {
    throw forbidden(
      max === undefined
        ? 'idle_timeout: the idle timeout is set by this site, not by the browser (see the idleTimeoutSeconds option)'
        : `idle_timeout: at most ${max} seconds here (see the idleTimeoutSeconds option)`,
    );
  }
  return max === undefined || fields.idle_timeout !== undefined ? fields : { ...fields, idle_timeout: max };
}

async function modelAllowed<Req>(options: ResolvedOptions<Req>, model: string, req: Req): Promise<boolean> {
  const models = options.models;
  if (Array.isArray(models)) return (models as readonly string[]).includes(model);
  return followsAgents(models as boolean | undefined, options.agents, req);
}

const forbidden = (detail: string) => new LiveAiError('forbidden', detail, { status: 403 });
