// The session's state: the state machine of a session's life, the phase users
// see (a pure function of the machine's stage and the facts), and the pure change each service event makes.
// The store itself and its starting values are in store.ts (a session object holds them from its creation on; what
// is here comes with the session engine). Everything here is pure.
import type { AvatarEvent, SessionStatus } from '../schemas';
import type { ConnectionState } from '../transports/types';
import type { IdleSessionState, ImageChangeState, Phase, SessionState, SessionStatePatch, TranscriptLine } from './types';

import { DEFAULT_MAX_TRANSCRIPT_LINES, initialMediaState, initialSessionState } from './store';

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

/**
 * State of a new start: the initial state, keeping the user's keep-alive, microphone, speaker mute and volume choices,
 * and what the audio output reports of autoplay (`audioBlocked`: the output, not a start, writes it).
 */
export function restartedState(prev: SessionState): IdleSessionState {
  const {
    keepAlive,
    media: { micEnabled, speakerMuted, volume, audioBlocked },
  } = prev;
  const next: IdleSessionState = {
    ...initialSessionState(),
    keepAlive,
    media: { ...initialMediaState(), micEnabled, speakerMuted, volume, audioBlocked },
  };
  // What is already as a new start leaves it keeps its value, so the components reading it are not rendered again
  // for nothing (the first start of a page changes none of these).
  if (shallowEqual(prev.media, next.media)) next.media = prev.media;
  if (prev.transcript.length === 0) next.transcript = prev.transcript;
  if (prev.image.status === 'idle') next.image = prev.image;
  if (prev.agentState.state === 'idle' && prev.agentState.source === 'derived') next.agentState = prev.agentState;
  return next;
}

function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length && ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Appends one line and keeps only the newest `max` lines (arrival order). Pure. */
export function appendTranscript(lines: TranscriptLine[], line: TranscriptLine, max = DEFAULT_MAX_TRANSCRIPT_LINES): TranscriptLine[] {
  const keep = Math.max(1, Math.floor(max));
  const next = lines.length >= keep ? lines.slice(lines.length - keep + 1) : lines.slice();
  next.push(line);
  return next;
}

const IMAGE_RANK: Record<ImageChangeState['status'], number> = { idle: 0, sending: 1, requested: 2, created: 3, complete: 4, error: 4 };

/**
 * What moves an image change: the session's own steps of `updateImage()` (`sending` when it starts, `requested` once
 * the proxy took the control event, `error` when it failed before the service saw it), or one of the service's
 * `image_change_*` events.
 */
export type ImageStep = { kind: 'sending' } | { kind: 'requested' } | { kind: 'failed'; error: string } | AvatarEvent;

/**
 * The next image-change state, pure: the one rule for `state.image`. A change starts with `sending` (or the service's
 * `image_change_requested` after a finished one) and never moves backwards within one change; `requested` from the
 * proxy only follows `sending` (the service's events may have moved it on already). Null: no change.
 */
export function nextImageState(current: ImageChangeState, step: ImageStep): ImageChangeState | null {
  const finished = current.status === 'complete' || current.status === 'error' || current.status === 'idle';
  const same = (next: ImageChangeState) => (next.status === current.status && next.error === current.error ? null : next);
  // A new change may start after a finished one; otherwise keep the order requested → created → complete.
  const to = (status: ImageChangeState['status']) =>
    !finished && IMAGE_RANK[status] < IMAGE_RANK[current.status] ? null : same({ status });
  switch ('type' in step ? step.type : step.kind) {
    case 'sending':
      return { status: 'sending' };
    case 'requested':
      return current.status === 'sending' ? { status: 'requested' } : null;
    case 'failed':
      return { status: 'error', error: (step as { error: string }).error };
    case 'image_change_requested':
      return to('requested');
    case 'image_created':
      return current.status === 'complete' ? null : to('created');
    case 'image_change_complete':
      return same({ status: 'complete' });
    case 'image_change_error':
      return same({ status: 'error', error: describeError((step as Extract<AvatarEvent, { type: 'image_change_error' }>).error) });
    default:
      return null;
  }
}

/** Readable text of an event's free-form `error` field. */
export function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const o = error as Record<string, unknown>;
    for (const k of ['message', 'detail', 'msg', 'error']) if (typeof o[k] === 'string') return o[k] as string;
    try {
      return JSON.stringify(error);
    } catch {
      return 'unknown error';
    }
  }
  return error === undefined || error === null ? 'unknown error' : String(error);
}

/**
 * The store change for one service event (pure): the transcript line of a transcription event, and `lastEvent`.
 * The event's other effects have their own writers in the session: the image change (`nextImageState`), the avatar
 * being live (`bot_ready`) and the ways out (`idle_timeout`, a fatal `daily_error`).
 * @param nextId id of the transcript line this event would add.
 */
export function reduceEvent(
  state: SessionState,
  event: AvatarEvent,
  opts: { now: number; nextId: number; maxTranscriptLines?: number },
): SessionStatePatch {
  const patch: SessionStatePatch = { lastEvent: event };
  if (event.type === 'user_transcription' || event.type === 'agent_transcription') {
    const role = event.type === 'user_transcription' ? 'user' : 'agent';
    const line: TranscriptLine = { id: opts.nextId, role, text: event.transcription, at: opts.now };
    patch.transcript = appendTranscript(state.transcript, line, opts.maxTranscriptLines);
  }
  return patch;
}
