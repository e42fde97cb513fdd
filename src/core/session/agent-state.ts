/**
 * What the agent behind the avatar is doing in the conversation.
 * - `idle`: nothing yet (not in a call, or the conversation has not begun);
 * - `listening`: the user is speaking, or it is the user's turn;
 * - `thinking`: the user's turn ended and the answer has not started;
 * - `speaking`: the avatar is speaking.
 * @public
 */
export type AgentStateName = 'idle' | 'listening' | 'thinking' | 'speaking';

/**
 * The agent's state with the time of its last change (`since`, epoch ms). `source` tells where it comes from:
 * `agent` when a LiveKit Agents agent publishes it (its `lk.agent.state` participant attribute), `derived` when it
 * is inferred from the room: the avatar's audio activity, the user's speech and the user's final transcription.
 * @public
 */
export interface AgentState {
  state: AgentStateName;
  since: number;
  source: 'agent' | 'derived';
}

/** What moves the agent state (see `nextAgentState`). */
export type AgentSignal =
  /** The agent published its state (LiveKit Agents' `lk.agent.state`: initializing, idle, listening, thinking, speaking). */
  | { kind: 'agent'; state: string }
  /** The avatar's audio started or stopped being active. */
  | { kind: 'avatar'; speaking: boolean }
  /** The user's speech was heard (`final: false`) or the user's turn was transcribed as final. */
  | { kind: 'user'; final: boolean }
  /** The call left the room or started again. */
  | { kind: 'reset' };

const NAMES: readonly string[] = ['idle', 'listening', 'thinking', 'speaking'];
/** A LiveKit Agents state as ours: `initializing` is `idle`; an unknown one is ignored. */
const named = (state: string) => (state === 'initializing' ? 'idle' : NAMES.includes(state) ? (state as AgentStateName) : undefined);

/** The agent state before any signal (the store starts with it too). */
export const initialAgentState = (now: number): AgentState => ({ state: 'idle', since: now, source: 'derived' });

/**
 * The next agent state for one signal, or null when nothing changes. Pure. Once an agent published its state, only
 * what it publishes counts (until a reset). Otherwise: the avatar's audio makes it `speaking`, and its end
 * `listening`; the user's speech makes it `listening` and the user's final transcription `thinking`, except while
 * the avatar speaks.
 */
export function nextAgentState(cur: AgentState, signal: AgentSignal, now: number): AgentState | null {
  let state: AgentStateName | undefined;
  let source = cur.source;
  if (signal.kind === 'reset') {
    state = 'idle';
    source = 'derived';
  } else if (signal.kind === 'agent') {
    state = named(signal.state);
    if (state) source = 'agent';
  } else if (cur.source === 'agent') return null;
  else if (signal.kind === 'avatar') state = signal.speaking ? 'speaking' : cur.state === 'speaking' ? 'listening' : undefined;
  else if (cur.state !== 'speaking') state = signal.final ? 'thinking' : 'listening';
  if (!state || (state === cur.state && source === cur.source)) return null;
  return { state, since: state === cur.state ? cur.since : now, source };
}
