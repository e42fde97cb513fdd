import * as v from 'valibot';
import { Router, type Request } from 'express';
import { type ControlEvent, type ControlEventName, INLINE_IMAGE_LIMIT_BYTES, isFinalStatus } from '../../core/index';
import { CONTROL_EVENT_NAMES, CONTROL_EVENTS, LeaveMeetingRequestSchema } from '../../core/validation';
import { decodedBase64Bytes, formatIssues } from '../../core/internal';
import { LEAVE_MEETING_DETAILS } from '../../shared/wire-errors';
import { applyControl } from '../control';
import type { EmulatorContext } from '../context';
import { finish } from '../lifecycle';
import { accountOf, invalidKeyDetail, keyAccount, requireApiKey } from '../http/auth';
import { jsonBody, objectBody } from '../http/body';
import { httpError, methodNotAllowed } from '../http/errors';
import type { SessionRecord } from '../store';
import { ownSession } from './sessions';

/** Validates a control body → the event; 400 naming the problem, 413 for a too large inline image. */
export function parseControlEvent(body: Record<string, unknown>): ControlEvent {
  const name = body.event;
  if (name === undefined) throw httpError(400, `event is required; one of ${CONTROL_EVENT_NAMES.join(', ')}`);
  if (typeof name !== 'string' || !Object.hasOwn(CONTROL_EVENTS, name)) {
    throw httpError(400, `unknown event ${JSON.stringify(name).slice(0, 80)}; expected one of ${CONTROL_EVENT_NAMES.join(', ')}`);
  }
  const schema: v.GenericSchema<unknown, ControlEvent> = CONTROL_EVENTS[name as ControlEventName].schema;
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw httpError(400, `invalid ${name} event: ${formatIssues(parsed.issues)}`);
  const event = parsed.output;
  if (event.event === 'update-image' && event.image_base64 !== undefined) {
    const bytes = decodedBase64Bytes(event.image_base64);
    if (bytes >= INLINE_IMAGE_LIMIT_BYTES) {
      throw httpError(
        413,
        `image_base64 decodes to ${bytes} bytes; inline images must be under ` +
          `${INLINE_IMAGE_LIMIT_BYTES} bytes (send larger images as image_url)`,
      );
    }
  }
  return event;
}

/**
 * Session of the control endpoint: no key needed; a key that is present must be valid (401)
 * and belong to the session's account (403).
 */
function controlledSession(ctx: EmulatorContext, req: Request): SessionRecord {
  const id = String(req.params.session_id);
  const rec = ctx.store.sessions.get(id);
  if (!rec) throw httpError(404, `session ${JSON.stringify(id)} not found`);
  const account = keyAccount(ctx, req);
  if (account === undefined) throw httpError(401, invalidKeyDetail(req.get('x-api-key')));
  if (account && account.apiKey !== rec.ownerKey) throw httpError(403, `session ${JSON.stringify(id)} does not belong to this account`);
  return rec;
}

const LEAVE_STATUS = { failed: 409, not_configured: 503, timeout: 504 } as const;
const LEAVE_DETAIL = {
  failed: LEAVE_MEETING_DETAILS.failed,
  not_configured: LEAVE_MEETING_DETAILS.notConfigured,
  timeout: LEAVE_MEETING_DETAILS.timedOut,
} as const;

/** `POST /liveai/sessions/{id}/control` and `POST /liveai/sessions/{id}/leave-meeting`. */
export function controlRouter(ctx: EmulatorContext): Router {
  const r = Router();
  r.route('/sessions/:session_id/control')
    .post(jsonBody, (req, res) => {
      const rec = controlledSession(ctx, req);
      const event = parseControlEvent(objectBody(req));
      if (isFinalStatus(rec.status)) {
        if (event.event === 'terminate') return void res.json({ success: true });
        throw httpError(400, `session ${rec.id} has ended (${rec.status}); only terminate is accepted`);
      }
      applyControl(ctx, rec, event);
      res.json({ success: true });
    })
    .all(methodNotAllowed(['POST']));
  r.route('/sessions/:session_id/leave-meeting')
    .post(requireApiKey(ctx, LEAVE_MEETING_DETAILS.invalidKey), jsonBody, (req, res) => {
      const body = req.body as unknown;
      const parsed = v.safeParse(LeaveMeetingRequestSchema, body ?? {});
      if (!parsed.success) throw httpError(400, LEAVE_MEETING_DETAILS.missing);
      const rec = ownSession(ctx, accountOf(req), String(req.params.session_id));
      if (rec.transport !== 'rtc-a')
        throw httpError(
          400,
          `leave-meeting works only for sessions on the rtc-a transport (this one is ${rec.transport ?? 'a hosted room'})`,
        );
      const outcome = rec.meetingBots.get(parsed.output.meeting_bot_id);
      if (outcome === undefined || isFinalStatus(rec.status)) throw httpError(409, LEAVE_MEETING_DETAILS.couldNot);
      if (outcome !== 'left') throw httpError(LEAVE_STATUS[outcome], LEAVE_DETAIL[outcome]);
      rec.meetingBots.delete(parsed.output.meeting_bot_id);
      if (rec.meetingBots.size === 0) finish(ctx, rec, 'COMPLETED', 'left the meeting');
      res.json({ status: 'left' });
    })
    .all(methodNotAllowed(['POST']));
  return r;
}
