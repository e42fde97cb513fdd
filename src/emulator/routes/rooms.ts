import * as v from 'valibot';
import { Router } from 'express';
import type { Room, RoomListItem } from '../../core/index';
import { CreateRoomRequestSchema } from '../../core/validation';
import { invalidRequest } from '../../core/internal';
import { joinMedia } from '../avatar';
import { creditsUsed } from '../billing';
import type { EmulatorContext } from '../context';
import { resolveImageUrl } from '../images';
import { startLifecycle } from '../lifecycle';
import { createLivekitRoom, mintToken, newAvatarIdentity, newRoomName, viewerIdentity } from '../livekit';
import { accountOf, requireApiKey } from '../http/auth';
import { jsonBody, objectBody } from '../http/body';
import { httpError, methodNotAllowed } from '../http/errors';
import { paginate, parsePagination } from '../http/pagination';
import type { Account } from '../store';

/** Agent of `account` by id: unknown, or another account's agent → 404. */
function ownAgent(ctx: EmulatorContext, account: Account, agentId: string) {
  const agent = ctx.store.agents.get(agentId);
  if (!agent || agent.ownerKey !== account.apiKey) throw httpError(404, `agent ${JSON.stringify(agentId)} not found`);
  return agent;
}

/** `GET /liveai/rooms` and `POST /liveai/rooms`. */
export function roomsRouter(ctx: EmulatorContext): Router {
  const r = Router();
  r.route('/rooms')
    .get(requireApiKey(ctx), (req, res) => {
      const { page, limit } = parsePagination(req.query);
      const all = ctx.store.listFor(accountOf(req).apiKey, 'room');
      const { items, pagination } = paginate(all, page, limit);
      const rooms: RoomListItem[] = items.map((s) => ({
        agent_id: s.agentId ?? '',
        session_id: s.id,
        created_at: s.createdAt.toISOString(),
        session_status: s.status,
        credits_used: creditsUsed(s, ctx.options.creditsPerMinute),
      }));
      res.json({ rooms, pagination });
    })
    .post(requireApiKey(ctx), jsonBody, async (req, res) => {
      const parsed = v.safeParse(CreateRoomRequestSchema, objectBody(req));
      if (!parsed.success) throw invalidRequest(parsed.issues);
      const account = accountOf(req);
      const agent = ownAgent(ctx, account, parsed.output.agent_id);
      if (account.credits <= 0) throw httpError(402, `insufficient funds: the agent owner has ${account.credits} credits`);
      const rec = ctx.store.add({
        ownerKey: account.apiKey,
        kind: 'room',
        agentId: agent.agentId,
        transport: null,
        model: null,
        imageUrl: agent.imageUrl,
        imageBytes: null,
      });
      rec.roomName = newRoomName();
      const lk = ctx.options.livekit;
      if (ctx.options.media) {
        try {
          await createLivekitRoom(lk, rec.roomName, 5000);
        } catch (e) {
          ctx.store.sessions.delete(rec.id);
          throw httpError(500, `could not create the room on the LiveKit server ${lk.url}: ${(e as Error).message}`);
        }
      }
      rec.join = { url: lk.url, token: await mintToken(lk, rec.roomName, newAvatarIdentity()) };
      const room: Room = {
        room_url: lk.url,
        token: await mintToken(lk, rec.roomName, viewerIdentity()),
        image_url: resolveImageUrl(ctx, agent.imageUrl),
        session_id: rec.id,
      };
      await startLifecycle(ctx, rec, (s) => joinMedia(ctx, s));
      res.status(201).json(room);
    })
    .all(methodNotAllowed(['GET', 'POST']));
  return r;
}
