export * from './types';
export { createAvatarSession } from './engine';
export { chooseTransport, isRunning, RUNNING_PHASES } from './phase';
export { imageSource } from './controls';
