// The session's store and its starting values: what a session object holds from its creation on (the state machine
// and the reducers come with the session engine, in state.ts). The session is the store's only writer.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { IdleSessionState, MediaState, SessionState, SessionStatePatch } from './types';

/**
 * Default number of transcript lines kept per session.
 * @public
 */
export const DEFAULT_MAX_TRANSCRIPT_LINES = 200;

/** Media state before joining: disconnected, no tracks, mic off, speaker on at full volume. */
export const initialMediaState = (): MediaState => ({
  connection: 'disconnected',
  videoTrack: null,
  audioTrack: null,
  audioBlocked: false,
  micEnabled: false,
  micTrack: null,
  micPending: false,
  speakerMuted: false,
  volume: 1,
});

/** State of a session that has not started (`phase: 'idle'`). */
export const initialSessionState = (): IdleSessionState => ({
  phase: 'idle',
  sessionStatus: null,
  sessionId: null,
  transport: null,
  imageUrl: null,
  cost: null,
  error: null,
  endReason: null,
  startedAt: null,
  queuedAt: null,
  activeAt: null,
  live: false,
  transcript: [],
  image: { status: 'idle' },
  media: initialMediaState(),
  lastEvent: null,
  keepAlive: false,
  // The agent state's rules (session/agent-state) load with a call's first signal; this is where they start.
  agentState: { state: 'idle', since: Date.now(), source: 'derived' },
});

/**
 * Creates the one zustand vanilla store of a session (per session, never a module singleton).
 * `seed` overrides fields of the initial state (stories, tests); `seed.media` is merged field by field.
 */
export function createSessionStore(seed: SessionStatePatch = {}): StoreApi<SessionState> {
  const base = initialSessionState();
  return createStore<SessionState>()(() => ({ ...base, ...seed, media: { ...base.media, ...seed.media } }) as SessionState);
}
