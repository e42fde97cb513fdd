/**
 * liveai-kit core: framework-free, runs in browsers and Node. No React, no transport SDK,
 * no Node built-ins are imported from here. The API-key client `createServiceClient` is
 * server-only and lives in `liveai-kit/server`; the schemas that validate each shape live in
 * `liveai-kit/schemas`, this entry exports their types.
 *
 * @module liveai-kit
 */
export * from './constants';
export { LiveAiError, isLiveAiError, type ErrorCode, type ErrorSource, type LiveAiErrorOptions } from './errors';
export { AVATAR_EVENT_TYPES, FINAL_STATUSES, inlineImageTooLarge, isFinalStatus } from './schemas/plain';
export type {
  AppMessage,
  AvatarEvent,
  AvatarEventMap,
  AvatarEventType,
  ClientSession,
  ClientToken,
  ControlEvent,
  ControlEventDefinition,
  ControlEventName,
  ControlEventPolicy,
  ControlEventSchemaOf,
  ControlResponse,
  CreateRoomRequest,
  CreateSessionRequest,
  ErrorBody,
  LeaveMeetingRequest,
  LeaveMeetingResponse,
  MediaTransport,
  Pagination,
  PaginationQuery,
  Provider,
  ProxySessionRequest,
  Room,
  RoomList,
  RoomListItem,
  Session,
  SessionList,
  SessionListItem,
  SessionStatus,
  SessionStatusResponse,
  ProxySessionStatus,
  TransportType,
} from './schemas';
export type { ParsedMessage } from './events/read';
export { DEFAULT_MAX_TRANSCRIPT_LINES } from './session/store';
export * from './session';
export * from './proxy-client';
export { prepareImage, type PrepareImageOptions, type PreparedImage } from './image/prepare';
export { PCM_FRAME_BYTES, PCM_FRAME_MS, PCM_FRAME_SAMPLES, PCM_SAMPLE_RATE } from './audio/format';
export {
  streamPcmToWebSocket,
  type AudioBufferLike,
  type AudioContextCtor,
  type PcmStream,
  type StreamPcmOptions,
  type WebSocketCtor,
} from './audio/stream';
export {
  createTransportRegistry,
  loadTransport,
  pageTransports,
  registerTransport,
  type TransportMemory,
  type TransportModule,
  type TransportRegistry,
} from './transports/choose';
export type * from './transports/types';
