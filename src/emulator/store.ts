import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Provider, SessionStatus, TransportType } from '../core/index';
import type { AvatarMedia, Demeanour } from './media/types';
import type { Seed } from './seed';

/** An account of the seed. `credits` may go below 0 (a running session is not cut off). */
export interface Account {
  apiKey: string;
  credits: number;
  agents: string[];
}
export interface Agent {
  agentId: string;
  /** As in the seed: absolute, or relative to the emulator base URL. */
  imageUrl: string;
  ownerKey: string;
}

/** How a meeting bot registered with `/__emulator/sessions/{id}/meeting-bots` answers leave-meeting. */
export type MeetingBotOutcome = 'left' | 'failed' | 'not_configured' | 'timeout';

/**
 * One recorded event (every event emitted for a session). `to`: identities of a targeted re-send.
 * @public
 */
export interface LoggedEvent {
  at: string;
  to: string[] | null;
  event: { type: string; [k: string]: unknown };
}

/** Where the media avatar joins (LiveKit URL + token). Tokens are secrets: never logged or returned. */
export interface JoinTarget {
  url: string;
  token: string;
}

/** A session or hosted room, with its state-machine bookkeeping (times in epoch ms). */
export interface SessionRecord {
  id: string;
  ownerKey: string;
  kind: 'room' | 'session';
  agentId: string | null;
  /** `null` for hosted rooms (listed with provider RTC_B). */
  transport: TransportType | null;
  createdAt: Date;
  seq: number;
  status: SessionStatus;
  activeSince: number | null;
  endedAt: number | null;
  /** Credits charged, set when the session ends COMPLETED. */
  cost: number | null;
  endReason: string | null;
  /** Current avatar image: a URL (agent / agent_image_url / update-image) and/or 368×560 PNG bytes. */
  image: { url: string | null; bytes: Buffer | null };
  demeanour: Demeanour;
  actions: string[];
  model: string | null;
  join: JoinTarget | null;
  roomName: string | null;
  meetingBots: Map<string, MeetingBotOutcome>;
  events: LoggedEvent[];
  media: AvatarMedia | null;
  timers: Set<NodeJS.Timeout>;
  idleTimer: NodeJS.Timeout | null;
  /** Idle timeout of this session (`idle_timeout` at creation), seconds; default the service's. */
  idleTimeoutS?: number;
  sockets: Set<WebSocket>;
  pcm: { frames: number; bytes: number };
}

/** Provider label of a session list item: `RTC_A` for rtc-a transports, `RTC_B` for rtc-b and hosted rooms. */
export const providerOf = (rec: SessionRecord): Provider => (rec.transport?.endsWith('rtc-a') ? 'RTC_A' : 'RTC_B');

/**
 * In-memory accounts, agents and sessions.
 * @public
 */
export class Store {
  readonly accounts = new Map<string, Account>();
  readonly agents = new Map<string, Agent>();
  readonly sessions = new Map<string, SessionRecord>();
  private seq = 0;

  constructor(seed: Seed) {
    for (const a of seed.accounts) {
      this.accounts.set(a.api_key, { apiKey: a.api_key, credits: a.credits, agents: a.agents.map((g) => g.agent_id) });
      for (const g of a.agents) this.agents.set(g.agent_id, { agentId: g.agent_id, imageUrl: g.image_url, ownerKey: a.api_key });
    }
  }

  /** Creates and stores a QUEUED record with a fresh 16-hex-digit id. */
  add(
    init: Pick<SessionRecord, 'ownerKey' | 'kind' | 'agentId' | 'transport' | 'model'> & {
      imageUrl: string | null;
      imageBytes: Buffer | null;
    },
  ): SessionRecord {
    let id = randomBytes(8).toString('hex');
    while (this.sessions.has(id)) id = randomBytes(8).toString('hex');
    const rec: SessionRecord = {
      id,
      ownerKey: init.ownerKey,
      kind: init.kind,
      agentId: init.agentId,
      transport: init.transport,
      model: init.model,
      createdAt: new Date(),
      seq: ++this.seq,
      status: 'QUEUED',
      activeSince: null,
      endedAt: null,
      cost: null,
      endReason: null,
      image: { url: init.imageUrl, bytes: init.imageBytes },
      demeanour: {},
      actions: [],
      join: null,
      roomName: null,
      meetingBots: new Map(),
      events: [],
      media: null,
      timers: new Set(),
      idleTimer: null,
      sockets: new Set(),
      pcm: { frames: 0, bytes: 0 },
    };
    this.sessions.set(id, rec);
    return rec;
  }

  /**
   * Forgets finished sessions older than `maxAgeMs` (since they ended), then the oldest finished ones beyond
   * `keep`. Live sessions are never forgotten.
   */
  pruneFinished(keep: number, maxAgeMs: number, now = Date.now()): void {
    const finished: SessionRecord[] = [];
    for (const rec of this.sessions.values()) {
      if (rec.endedAt === null) continue;
      if (rec.endedAt <= now - maxAgeMs) this.sessions.delete(rec.id);
      else finished.push(rec);
    }
    if (finished.length <= keep) return;
    finished.sort((a, b) => a.endedAt! - b.endedAt! || a.seq - b.seq);
    for (const rec of finished.slice(0, finished.length - keep)) this.sessions.delete(rec.id);
  }

  /** Sessions of one account, newest first; `kind` filters to hosted rooms or API sessions. */
  listFor(apiKey: string, kind?: SessionRecord['kind']): SessionRecord[] {
    return [...this.sessions.values()]
      .filter((s) => s.ownerKey === apiKey && (kind === undefined || s.kind === kind))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.seq - a.seq);
  }
}
