/**
 * The types of a transport entry's transport object (`registerTransport` takes it; its `load` gives the adapter),
 * re-exported by `liveai-kit/livekit` and `liveai-kit/daily`.
 */
export type {
  AppMessage,
  AvatarEvent,
  CallStats,
  ConnectionState,
  ConnectOptions,
  ErrorCode,
  ErrorSource,
  LiveAiError,
  LiveAiErrorOptions,
  MediaTransport,
  Transport,
  TransportEventMap,
  TransportEventName,
  TransportFactory,
  TransportModule,
} from '../index';
