import type * as v from 'valibot';
import type { Session } from '../../core/index';
import type { RtcAPropertiesSchema, SessionCreateFieldsSchema } from '../../core/validation';
import { joinMedia } from '../avatar';
import type { EmulatorContext } from '../context';
import { httpError } from '../http/errors';
import { toAvatarPng } from '../images';
import { startLifecycle } from '../lifecycle';
import type { Account, JoinTarget } from '../store';

/** Validated creation input: the fields (JSON body or multipart payload) and the uploaded image bytes. */
export interface SessionInput {
  fields: v.InferOutput<typeof SessionCreateFieldsSchema>;
  image: Buffer | null;
}

type RtcA = v.InferOutput<typeof RtcAPropertiesSchema>;
const rtcA = (p: unknown): JoinTarget | null => {
  const v = p as Partial<RtcA> | undefined;
  return v?.rtc_a_url && v.rtc_a_token ? { url: v.rtc_a_url, token: v.rtc_a_token } : null;
};

/**
 * Creates a session for a validated input: agent 404 / 403, credits 402 (balance ≤ 0), the upload
 * center-cropped to 368×560 (400 when not an image). Starts the state machine.
 * @returns the Session: `session_id`, `control_url`, `room_url` (rtc-b), `websocket_address` (websocket-*).
 */
export async function createSession(ctx: EmulatorContext, account: Account, input: SessionInput): Promise<Session> {
  const f = input.fields;
  let imageUrl = f.agent_image_url ?? null;
  if (f.agent_id !== undefined) {
    const agent = ctx.store.agents.get(f.agent_id);
    if (!agent) throw httpError(404, `agent ${JSON.stringify(f.agent_id)} not found`);
    if (agent.ownerKey !== account.apiKey) throw httpError(403, `agent ${JSON.stringify(f.agent_id)} is not owned by this account`);
    imageUrl = agent.imageUrl;
  }
  if (account.credits <= 0) throw httpError(402, `insufficient funds: the agent owner has ${account.credits} credits`);
  const imageBytes = input.image ? await toAvatarPng(input.image) : null;
  const rec = ctx.store.add({
    ownerKey: account.apiKey,
    kind: 'session',
    agentId: f.agent_id ?? null,
    transport: f.transport_type,
    model: f.model ?? null,
    imageUrl,
    imageBytes,
  });
  if (f.agent_prompt) rec.demeanour.agentPrompt = f.agent_prompt;
  if (f.agent_idle_prompt) rec.demeanour.idlePrompt = f.agent_idle_prompt;
  if (f.idle_timeout !== undefined) rec.idleTimeoutS = f.idle_timeout;
  if (f.transport_type === 'rtc-a') rec.join = rtcA(f.properties);
  if (f.transport_type === 'websocket-rtc-a') rec.join = rtcA(f.rtc_a_properties);
  await startLifecycle(ctx, rec, (s) => joinMedia(ctx, s));
  const base = ctx.baseUrl();
  const out: Session = { session_id: rec.id, control_url: `${base}/liveai/sessions/${rec.id}/control` };
  if (f.transport_type === 'rtc-b') out.room_url = (f.properties as { rtc_b_url: string }).rtc_b_url;
  if (f.transport_type.startsWith('websocket-')) out.websocket_address = `${base.replace(/^http/, 'ws')}/liveai/ws/${rec.id}`;
  return out;
}
