export * from './types';
export { createAvatarSession } from './engine';
export { derivePhase, chooseTransport, isRunning, RUNNING_PHASES } from './phase';
export { imageSource } from './controls';
export { createStatusPoller, nextInterval, jittered, type StatusPoller, type StatusPollerOptions } from './poller';
export { createAudioOutput, type AudioOutput } from './audio-output';
