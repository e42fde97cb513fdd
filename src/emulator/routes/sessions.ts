import * as v from 'valibot';
import { Router, type Request } from 'express';
import type { SessionListItem, SessionStatusResponse } from '../../core/index';
import { CreateSessionRequestSchema, MultipartPayloadSchema, sessionCreateProblems } from '../../core/validation';
import { formatIssues, invalidRequest } from '../../core/internal';
import { creditsUsed } from '../billing';
import type { EmulatorContext } from '../context';
import { accountOf, requireApiKey } from '../http/auth';
import { jsonBody, multipartBody, objectBody, uploadedFile } from '../http/body';
import { httpError, methodNotAllowed } from '../http/errors';
import { paginate, parsePagination } from '../http/pagination';
import { providerOf, type Account, type SessionRecord } from '../store';
import { createSession, type SessionInput } from './create-session';

/** The session `id` of `account`: unknown → 404, another account's → 403. */
export function ownSession(ctx: EmulatorContext, account: Account, id: string): SessionRecord {
  const rec = ctx.store.sessions.get(id);
  if (!rec) throw httpError(404, `session ${JSON.stringify(id)} not found`);
  if (rec.ownerKey !== account.apiKey) throw httpError(403, `session ${JSON.stringify(id)} does not belong to this account`);
  return rec;
}

/** Reads the JSON or multipart body of `POST /liveai/sessions` → validated input. */
function readSessionInput(ctx: EmulatorContext, req: Request): SessionInput {
  const { labels } = ctx.options;
  const neutral = (body: Record<string, unknown>) => {
    const t = body.transport_type;
    if (!labels.neutral && typeof t === 'string' && !labels.transportTypes.includes(t)) {
      throw httpError(400, `transport_type must be one of ${labels.transportTypes.join(', ')} under this service's provider labels`);
    }
    return labels.bodyFromWire(body);
  };
  if (!req.is('multipart/form-data')) {
    const parsed = v.safeParse(CreateSessionRequestSchema, neutral(objectBody(req)));
    if (!parsed.success) throw invalidRequest(parsed.issues);
    return { fields: parsed.output, image: null };
  }
  const image = uploadedFile(req, 'image');
  const payloadFile = uploadedFile(req, 'payload');
  const text = payloadFile ? payloadFile.buffer.toString('utf8') : (req.body as Record<string, unknown> | undefined)?.payload;
  if (typeof text !== 'string') throw httpError(400, 'the multipart payload part (JSON object) is required');
  if (!image) {
    const asText = typeof (req.body as Record<string, unknown> | undefined)?.image === 'string';
    throw httpError(
      400,
      asText ? 'the multipart image part must be a file part (with a filename)' : 'the multipart image part is required',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw httpError(400, 'the multipart payload part is not valid JSON');
  }
  const parsed = v.safeParse(
    MultipartPayloadSchema,
    json && typeof json === 'object' && !Array.isArray(json) ? neutral(json as Record<string, unknown>) : json,
  );
  if (!parsed.success) throw httpError(400, `payload: ${formatIssues(parsed.issues)}`);
  const problems = sessionCreateProblems(parsed.output, true);
  if (problems.length) throw httpError(400, problems.map((p) => `payload.${p.path}: ${p.message}`).join('; '));
  return { fields: parsed.output, image: image.buffer };
}

/** `GET/POST /liveai/sessions` and `GET /liveai/sessions/{session_id}`. */
export function sessionsRouter(ctx: EmulatorContext): Router {
  const r = Router();
  r.route('/sessions')
    .get(requireApiKey(ctx), (req, res) => {
      const { page, limit } = parsePagination(req.query);
      const { items, pagination } = paginate(ctx.store.listFor(accountOf(req).apiKey), page, limit);
      const sessions: SessionListItem[] = items.map((s) => ({
        session_id: s.id,
        created_at: s.createdAt.toISOString(),
        session_status: s.status,
        credits_used: creditsUsed(s, ctx.options.creditsPerMinute),
        provider: ctx.options.labels.providerToWire(providerOf(s)) as SessionListItem['provider'],
      }));
      res.json({ sessions, pagination });
    })
    .post(
      requireApiKey(ctx),
      (req, res, next) => (req.is('multipart/form-data') ? multipartBody(req, res, next) : jsonBody(req, res, next)),
      async (req, res) => {
        res.status(201).json(await createSession(ctx, accountOf(req), readSessionInput(ctx, req)));
      },
    )
    .all(methodNotAllowed(['GET', 'POST']));
  r.route('/sessions/:session_id')
    .get(requireApiKey(ctx), (req, res) => {
      const rec = ownSession(ctx, accountOf(req), String(req.params.session_id));
      const body: SessionStatusResponse = { session_status: rec.status };
      if (rec.status === 'COMPLETED') body.cost = rec.cost ?? 0;
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));
  return r;
}
