/**
 * liveai-kit/react: headless hooks over the framework-free session. SSR-safe to import.
 *
 * @module liveai-kit/react
 */
export {
  AvatarSessionContext,
  AvatarSessionProvider,
  useAvatarSession,
  useSession,
  type AvatarSessionProviderProps,
  type SessionLifecycle,
  type UseSessionResult,
} from './session';
export { useAvatarEvents, type AvatarEventHandler } from './useAvatarEvents';
export { useControl, type UseControlResult } from './useControl';
export { useTranscript } from './useTranscript';
export { useMedia, type UseMediaResult } from './useMedia';
export { useMediaDevices } from './useMediaDevices';
export { useQueueClock, queueProgress, SLOW_QUEUE_MS, type QueueClock } from './useQueueClock';
export { useSessionList, type UseSessionListOptions, type UseSessionListResult } from './useSessionList';
export { useAgentState } from './useAgentState';
export { useAudioLevel, useAudioBands, type AudioLevelSource } from './useAudioLevel';
export { useCallStats } from './useCallStats';
// The core's types the hooks take and return, so an app imports them from where it meets them (their values, such
// as the LiveAiError class, come from `liveai-kit`).
export type * from '../core/entry-types';
