import * as v from 'valibot';
import {
  type ClientSession,
  type ControlEvent,
  inlineImageTooLarge,
  isFinalStatus,
  MAX_PAGINATION_OFFSET,
  type SessionStatus,
  type TransportType,
} from '../core/index';
import {
  ControlEventSchema,
  CreateRoomRequestSchema,
  EndRequestSchema,
  LeaveMeetingRequestSchema,
  PaginationQuerySchema,
  ProxySessionFieldsSchema,
  proxySessionProblems,
} from '../core/validation';
import { blobToText, decodedBase64Bytes, formatIssues } from '../core/internal';

/**
 * One session or room the fake proxy holds.
 * @public
 */
export interface FakeSessionRecord {
  session_id: string;
  client_token: string;
  kind: 'room' | 'session';
  agent_id: string | null;
  transport: TransportType;
  status: SessionStatus;
  cost: number;
  createdAt: number;
  controls: ControlEvent[];
  request?: unknown;
  image?: Blob;
  ended: boolean;
}

/** @public */
export interface FakeProxyOptions {
  /** `room_url` of rooms (default `https://rooms.fake.test/room-N`, i.e. rtc-b). */
  roomUrl?: string;
  /** `room_url` of rtc-a / websocket-rtc-a sessions (default `ws://livekit.fake.test`). */
  livekitUrl?: string;
  /** Status of a new session (default `QUEUED`). */
  initialStatus?: SessionStatus;
  /** When set, a QUEUED session turns ACTIVE by itself after this many ms (stories). Default: only `setStatus`. */
  queueMs?: number | null;
  /** Credits reported when a session completes (default 1.25). */
  cost?: number;
  /** Known agent ids; others get 404 (default: any agent exists). */
  agents?: string[];
  imageUrl?: string;
}

export type FakeRouteHandler = (req: {
  method: string;
  id?: string;
  headers: Record<string, string>;
  body: unknown;
}) => Promise<[number, unknown]> | [number, unknown];

/**
 * The fake proxy's state and its routes: the sessions and rooms it holds, each route's answer as
 * `[status, body]`, and the list routes with pagination.
 */
export function createFakeRoutes(options: FakeProxyOptions) {
  const sessions = new Map<string, FakeSessionRecord>();
  let n = 0;

  const detail = (status: number, text: string): [number, unknown] => [status, { detail: text }];
  const statusOf = (r: FakeSessionRecord): SessionStatus => {
    if (r.status === 'QUEUED' && options.queueMs != null && Date.now() - r.createdAt >= options.queueMs) r.status = 'ACTIVE';
    return r.status;
  };
  const complete = (r: FakeSessionRecord) => {
    if (!isFinalStatus(r.status)) r.status = 'COMPLETED';
    r.ended = true;
  };
  function create(
    kind: 'room' | 'session',
    transport: TransportType,
    agentId: string | null,
    extra: Partial<FakeSessionRecord> = {},
  ): FakeSessionRecord {
    n++;
    const r: FakeSessionRecord = {
      session_id: `sess_${n}`,
      client_token: `ct_${n}`,
      kind,
      agent_id: agentId,
      transport,
      status: options.initialStatus ?? 'QUEUED',
      cost: options.cost ?? 1.25,
      createdAt: Date.now(),
      controls: [],
      ended: false,
      ...extra,
    };
    sessions.set(r.session_id, r);
    return r;
  }
  function clientOf(r: FakeSessionRecord): ClientSession {
    const c: ClientSession = { session_id: r.session_id, client_token: r.client_token, transport: r.transport };
    if (r.kind === 'room') {
      c.room_url = options.roomUrl ?? `https://rooms.fake.test/room-${r.session_id}`;
      c.token = `room-token-${r.session_id}`;
      c.image_url = options.imageUrl ?? 'https://images.fake.test/agent.png';
    } else if (r.transport === 'rtc-a' || r.transport === 'websocket-rtc-a') {
      c.room_url = options.livekitUrl ?? 'ws://livekit.fake.test';
      c.token = `viewer-token-${r.session_id}`;
    } else {
      const req = r.request as { properties?: { rtc_b_url?: string }; rtc_b_properties?: { rtc_b_url?: string } } | undefined;
      const url = req?.properties?.rtc_b_url ?? req?.rtc_b_properties?.rtc_b_url;
      if (url) c.room_url = url;
    }
    if (r.transport.startsWith('websocket-')) c.websocket_address = `wss://ws.fake.test/${r.session_id}`;
    return c;
  }
  const authed = (req: { id?: string; headers: Record<string, string>; body: unknown }, allowBody = false) => {
    const r = req.id ? sessions.get(req.id) : undefined;
    if (!r) return detail(404, 'Session not found');
    const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    let token = m?.[1];
    if (!token && allowBody) token = v.is(EndRequestSchema, req.body) ? req.body.client_token : undefined;
    if (!token) return detail(401, 'Missing client token');
    if (token !== r.client_token) return detail(403, 'This client token belongs to another session');
    return r;
  };
  const list = (kind: 'room' | 'session', query: URLSearchParams): [number, unknown] => {
    const q = v.safeParse(PaginationQuerySchema, Object.fromEntries(query));
    if (!q.success) return detail(400, formatIssues(q.issues));
    const { page, limit } = q.output;
    if ((page - 1) * limit > MAX_PAGINATION_OFFSET) return detail(400, `page too deep: the maximum offset is ${MAX_PAGINATION_OFFSET}`);
    const all = [...sessions.values()].filter((r) => r.kind === kind).sort((a, b) => b.createdAt - a.createdAt);
    const items = all.slice((page - 1) * limit, page * limit).map((r) => {
      const base = {
        session_id: r.session_id,
        created_at: new Date(r.createdAt).toISOString(),
        session_status: statusOf(r),
        credits_used: r.status === 'COMPLETED' ? r.cost : null,
      };
      return kind === 'room'
        ? { agent_id: r.agent_id ?? 'agent', ...base }
        : { ...base, provider: r.transport.endsWith('rtc-b') ? 'RTC_B' : 'RTC_A' };
    });
    const total_pages = Math.ceil(all.length / limit);
    return [
      200,
      {
        [kind === 'room' ? 'rooms' : 'sessions']: items,
        pagination: { page, limit, total: all.length, total_pages, has_more: page < total_pages },
      },
    ];
  };

  const routes: Record<string, FakeRouteHandler> = {
    'POST /rooms': ({ body }) => {
      const p = v.safeParse(CreateRoomRequestSchema, body);
      if (!p.success) return detail(400, formatIssues(p.issues));
      if (options.agents && !options.agents.includes(p.output.agent_id)) return detail(404, 'Agent not found');
      return [201, clientOf(create('room', 'rtc-b', p.output.agent_id))];
    },
    'POST /sessions': async ({ body }) => {
      let payload = body;
      let image: Blob | undefined;
      if (body instanceof FormData) {
        const part = body.get('payload');
        const img = body.get('image');
        image = img instanceof Blob ? img : undefined;
        try {
          payload = JSON.parse(typeof part === 'string' ? part : part ? await blobToText(part) : 'null');
        } catch {
          return detail(400, 'payload must be JSON');
        }
      }
      const p = v.safeParse(ProxySessionFieldsSchema, payload);
      if (!p.success) return detail(400, formatIssues(p.issues));
      const problems = proxySessionProblems(p.output, image !== undefined);
      if (problems.length) return detail(400, problems.map((x) => `${x.path}: ${x.message}`).join('; '));
      if (p.output.agent_id && options.agents && !options.agents.includes(p.output.agent_id)) return detail(404, 'Agent not found');
      return [201, clientOf(create('session', p.output.transport_type, p.output.agent_id ?? null, { request: p.output, image }))];
    },
    'GET /sessions/:id': (req) => {
      const r = authed(req);
      if (Array.isArray(r)) return r;
      const status = statusOf(r);
      return [200, status === 'COMPLETED' ? { session_status: status, cost: r.cost } : { session_status: status }];
    },
    'POST /sessions/:id/control': (req) => {
      const r = authed(req);
      if (Array.isArray(r)) return r;
      const p = v.safeParse(ControlEventSchema, req.body);
      if (!p.success) return detail(400, formatIssues(p.issues));
      if (p.output.event === 'update-image' && p.output.image_base64 && inlineImageTooLarge(p.output.image_base64)) {
        return detail(413, `Image too large: ${decodedBase64Bytes(p.output.image_base64)} bytes; the limit is 921600 bytes`);
      }
      r.controls.push(p.output);
      if (p.output.event === 'terminate') complete(r);
      return [200, { success: true }];
    },
    'POST /sessions/:id/leave-meeting': (req) => {
      const r = authed(req);
      if (Array.isArray(r)) return r;
      const p = v.safeParse(LeaveMeetingRequestSchema, req.body);
      if (!p.success) return detail(400, 'Missing meeting_bot_id');
      return [200, { status: 'left' }];
    },
    'POST /sessions/:id/end': (req) => {
      const r = authed(req, true);
      if (Array.isArray(r)) return r;
      complete(r);
      return [200, { success: true }];
    },
  };

  return { sessions, create, clientOf, list, routes };
}
