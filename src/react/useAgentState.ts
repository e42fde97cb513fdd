import type { AgentState } from '../core/index';
import { useSessionState } from './session';

/**
 * What the agent behind the avatar is doing: `{ state, since, source }` with `state` one of `idle`, `listening`,
 * `thinking`, `speaking` and `since` the time of the last change (epoch ms).
 *
 * In a LiveKit room with a LiveKit Agents agent the agent's own state is used (`source: 'agent'`). Otherwise it is
 * derived from the room (`source: 'derived'`): `speaking` while the avatar's audio is active, `listening` once the
 * user's speech is heard and after the avatar finished, `thinking` from the user's final transcription until the
 * avatar's first audio. `idle` outside a call. Re-renders only when it changes.
 * @public
 */
export function useAgentState(): AgentState {
  return useSessionState((s) => s.agentState);
}
