export * from './types';
export { createAvatarSession, imageSource } from './session';
export { isRunning, RUNNING_PHASES } from './state';
export { chooseTransport } from '../transports/choose';
export type { AgentState, AgentStateName } from './agent-state';
