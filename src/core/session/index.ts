export * from './types';
export { createAvatarSession } from './create';
export { isRunning, RUNNING_PHASES, type RunningPhase } from '../../shared/phases';
export { chooseTransport } from '../transports/choose';
export type { AgentState, AgentStateName } from './agent-state';
