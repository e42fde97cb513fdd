import type { SessionStatus } from '../schemas';
import type { ConnectionState } from '../transports/types';
import type { Phase } from './types';

export { RUNNING_PHASES, isRunning, isWaiting } from '../../shared/phases';

/**
 * The session's state machine. `Stage` is where the session is in its life; the `Phase` users see is derived from
 * the stage and, while running, from the facts the service and the room report (see `phaseOf`).
 */
export type Stage = 'idle' | 'running' | 'ending' | 'ended' | 'failed';

/**
 * What moves the machine:
 * - `start`: `start()` was called;
 * - `end`: `end()`, `idle_timeout`, the service's `COMPLETED`, or an unmount; the session leaves and settles;
 * - `fail`: a fatal error while running (create/join failed, the room was lost, `FAILED`/`TIMED_OUT`, 404);
 * - `settled`: the teardown of an `end` finished (final status known or waited for long enough);
 * - `settleFailed`: the teardown of an `end` could not end the session at the service;
 * - `unload`: the page is going away (the end beacon was sent).
 */
export type Input = 'start' | 'end' | 'fail' | 'settled' | 'settleFailed' | 'unload';

/** Every allowed edge: stage → input → next stage. An input missing from a row is ignored in that stage. */
export const TRANSITIONS: { readonly [S in Stage]: Readonly<Partial<Record<Input, Stage>>> } = {
  idle: { start: 'running' },
  running: { end: 'ending', fail: 'failed', unload: 'ended' },
  ending: { settled: 'ended', settleFailed: 'failed' },
  ended: { start: 'running' },
  failed: { start: 'running' },
};

/** The next stage, or null when `input` is not allowed in `stage`. Pure. */
export const transition = (stage: Stage, input: Input): Stage | null => TRANSITIONS[stage][input] ?? null;

/** The facts a running phase is derived from, each written by one source. */
export interface Facts {
  /** The service's status (its status answers only); null until the first answer. */
  status: SessionStatus | null;
  /** The room connection, as the transport reports it. */
  connection: ConnectionState;
  /** The session has a room to join. */
  hasRoom: boolean;
  /** The call was active before (it stays active while the room reconnects). */
  wasActive: boolean;
  /** The avatar is live: `bot_ready` came, or its video track is in the room. */
  live?: boolean;
  /** The avatar's video is arriving: its track is there and not muted (frames come in). */
  videoFlowing?: boolean;
}

/**
 * Phase of a started session, pure:
 * - no status yet and the avatar not live → `creating` (the create call and the first status poll are under way);
 * - `QUEUED` and the avatar not live → `queued` (the room may already be joined, so the avatar shows the moment it is live);
 * - `ACTIVE` or live → `active` once the room is connected or the avatar's video is arriving (which can come a little
 *   before the room says it is connected), or when there is no room to join, or it was active before and is only
 *   reconnecting; else `connecting`.
 * Final statuses are handled by the session (`ended` / `error`).
 */
export function derivePhase(f: Facts): 'creating' | 'queued' | 'connecting' | 'active' {
  const up = f.status === 'ACTIVE' || !!f.live;
  if (f.status === null && !up) return 'creating';
  if (f.status === 'QUEUED' && !up) return f.wasActive ? 'active' : 'queued';
  if (!f.hasRoom || f.wasActive || f.connection === 'connected' || f.videoFlowing) return 'active';
  return 'connecting';
}

const PHASE_OF_STAGE = { idle: 'idle', ending: 'ending', ended: 'ended', failed: 'error' } as const;

/** The phase users see: `creating`/`queued`/`connecting`/`active` while running (see `derivePhase`), else the stage's. Pure. */
export const phaseOf = (stage: Stage, facts: Facts): Phase => (stage === 'running' ? derivePhase(facts) : PHASE_OF_STAGE[stage]);

/** The stage a seeded phase stands for (stories and tests that start from a given state). */
export function stageOf(phase: Phase): Stage {
  if (phase === 'idle' || phase === 'ending' || phase === 'ended') return phase;
  return phase === 'error' ? 'failed' : 'running';
}
