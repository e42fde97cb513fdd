import express, { Router } from 'express';
import * as z from 'zod';
import { isFinalStatus, type SessionStatus, type TransportType } from '../../core/index';
import { formatZodError } from '../../core/internal';
import { handleAppMessage } from '../app-messages';
import { creditsUsed } from '../billing';
import type { EmulatorContext } from '../context';
import { FaultsPatchSchema } from '../faults';
import { finish } from '../lifecycle';
import { objectBody } from '../http/body';
import { httpError } from '../http/errors';
import type { SessionRecord } from '../store';

/**
 * What the emulator knows about one session, without secrets: the body of `GET /__emulator/sessions/{id}` and the
 * value of `emulator.state.session(id)`. Times are ISO 8601 strings, `cost` and `credits_used` are credits.
 * @public
 */
export interface EmulatorSessionView {
  /** The session's (or hosted room's) id, 16 hex digits. */
  session_id: string;
  /** `room` for a hosted room (`POST /liveai/rooms`), `session` for a session. */
  kind: 'room' | 'session';
  /** The agent it was created for; null when the request named none. */
  agent_id: string | null;
  /** The session's transport (`rtc-a`, `rtc-b`, `websocket-rtc-a`, …); null for a hosted room. */
  transport_type: TransportType | null;
  /** The `model` of the create request; null when it named none. */
  model: string | null;
  /** The `idle_timeout` of the create request, in seconds; null when it named none (the service's own applies). */
  idle_timeout: number | null;
  /** `QUEUED`, `ACTIVE`, or the final status (`COMPLETED`, `FAILED`, `TIMED_OUT`). */
  session_status: SessionStatus;
  /** When it was created. */
  created_at: string;
  /** When it became `ACTIVE`; null before. */
  active_since: string | null;
  /** When it ended; null while it runs. */
  ended_at: string | null;
  /** Why it ended (e.g. `idle_timeout`, `terminate`, `force-end`); null while it runs. */
  end_reason: string | null;
  /** Credits charged, set once it ended `COMPLETED`; else null. */
  cost: number | null;
  /** Credits so far: accruing while `ACTIVE`, the cost once `COMPLETED`, null otherwise. */
  credits_used: number | null;
  /** The LiveKit room the emulator made for a hosted room; null for a session (its room comes with its request). */
  room_name: string | null;
  /** True while a synthetic avatar is in the room (media on). */
  media_joined: boolean;
  /** The avatar's current image: its URL and/or the size of its uploaded or replaced PNG, bytes. */
  image: { url: string | null; bytes: number | null };
  /** The prompts `update-agent-prompt` and `update-idle-prompt` set. */
  demeanour: { agentPrompt?: string; idlePrompt?: string };
  /** The names of the `action` control events received, in order. */
  actions: string[];
  /** The `meeting_bot_id`s registered through `POST /__emulator/sessions/{id}/meeting-bots`. */
  meeting_bots: string[];
  /** The session's audio WebSockets: open sockets, and PCM frames and bytes received so far. */
  websocket: { open: number; frames: number; bytes: number };
}

/** The secret-free view of a session for tests (`GET /__emulator/sessions/{id}`). */
export function sessionView(ctx: EmulatorContext, rec: SessionRecord): EmulatorSessionView {
  return {
    session_id: rec.id,
    kind: rec.kind,
    agent_id: rec.agentId,
    transport_type: rec.transport,
    model: rec.model,
    idle_timeout: rec.idleTimeoutS ?? null,
    session_status: rec.status,
    created_at: rec.createdAt.toISOString(),
    active_since: rec.activeSince === null ? null : new Date(rec.activeSince).toISOString(),
    ended_at: rec.endedAt === null ? null : new Date(rec.endedAt).toISOString(),
    end_reason: rec.endReason,
    cost: rec.cost,
    credits_used: creditsUsed(rec, ctx.options.creditsPerMinute),
    room_name: rec.roomName,
    media_joined: rec.media !== null,
    image: { url: rec.image.url, bytes: rec.image.bytes?.length ?? null },
    demeanour: rec.demeanour,
    actions: rec.actions,
    meeting_bots: [...rec.meetingBots.keys()],
    websocket: { open: rec.sockets.size, frames: rec.pcm.frames, bytes: rec.pcm.bytes },
  };
}

const parse = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const p = schema.safeParse(body);
  if (!p.success) throw httpError(400, formatZodError(p.error));
  return p.data;
};
const MeetingBotSchema = z.strictObject({
  meeting_bot_id: z.string().min(1),
  outcome: z.enum(['left', 'failed', 'not_configured', 'timeout']).default('left'),
});
const CreditsSchema = z.strictObject({ credits: z.number().finite() });
const ListQuerySchema = z.strictObject({ after: z.coerce.number().int().min(0).optional() });

/**
 * Test and control routes under `/__emulator` (docs/emulator.md): faults, session inspection, event log,
 * forced outcomes, app messages, meeting bots, account credits. Not part of the service interface; no API key.
 */
export function internalRouter(ctx: EmulatorContext): Router {
  const r = Router();
  r.use(express.json({ limit: '1mb' }));
  const session = (id: string) => {
    const rec = ctx.store.sessions.get(id);
    if (!rec) throw httpError(404, `session ${JSON.stringify(id)} not found`);
    return rec;
  };
  r.get('/faults', (_req, res) => void res.json(ctx.faults));
  r.post('/faults', (req, res) => {
    Object.assign(ctx.faults, parse(FaultsPatchSchema, objectBody(req)));
    res.json(ctx.faults);
  });
  r.get('/accounts', (_req, res) => {
    const accounts = [...ctx.store.accounts.values()].map((a) => ({ api_key: a.apiKey, credits: a.credits, agents: a.agents }));
    res.json({ accounts });
  });
  r.post('/accounts/:api_key/credits', (req, res) => {
    const account = ctx.store.accounts.get(String(req.params.api_key));
    if (!account) throw httpError(404, 'account not found');
    account.credits = parse(CreditsSchema, objectBody(req)).credits;
    res.json({ api_key: account.apiKey, credits: account.credits });
  });
  r.get('/sessions', (req, res) => {
    // Every session and hosted room this process still keeps (see `keepFinishedSessions`), oldest first, of every
    // account: what a soak or load test checks its invariants against. `after`: only those created after that `seq`.
    const after = parse(ListQuerySchema, req.query).after ?? 0;
    const sessions = [...ctx.store.sessions.values()].filter((rec) => rec.seq > after).sort((a, b) => a.seq - b.seq);
    res.json({ sessions: sessions.map((rec) => ({ seq: rec.seq, ...sessionView(ctx, rec) })) });
  });
  r.get('/sessions/:id', (req, res) => void res.json(sessionView(ctx, session(req.params.id))));
  r.get('/sessions/:id/events', (req, res) => void res.json({ events: session(req.params.id).events }));
  r.get('/sessions/:id/image', (req, res) => {
    const rec = session(req.params.id);
    if (!rec.image.bytes) throw httpError(404, 'this session has no uploaded or replaced image bytes');
    res.type('png').send(rec.image.bytes);
  });
  for (const [path, status] of [
    ['fail', 'FAILED'],
    ['timeout', 'TIMED_OUT'],
  ] as const) {
    r.post(`/sessions/:id/${path}`, (req, res) => {
      const rec = session(req.params.id);
      if (!finish(ctx, rec, status, `forced by /__emulator/sessions/{id}/${path}`))
        throw httpError(409, `session has already ended (${rec.status})`);
      res.json({ session_status: rec.status });
    });
  }
  r.post('/sessions/:id/app-message', (req, res) => void res.json(handleAppMessage(ctx, session(req.params.id), req.body)));
  r.post('/sessions/:id/meeting-bots', (req, res) => {
    const rec = session(req.params.id);
    const body = parse(MeetingBotSchema, objectBody(req));
    if (isFinalStatus(rec.status)) throw httpError(409, `session has already ended (${rec.status})`);
    rec.meetingBots.set(body.meeting_bot_id, body.outcome);
    res.status(201).json({ session_id: rec.id, meeting_bot_id: body.meeting_bot_id, outcome: body.outcome });
  });
  return r;
}
