export * from './types';
export { createAvatarSession } from './create';
export { chooseTransport, isRunning, RUNNING_PHASES } from './phase';
export { imageSource } from './controls';
