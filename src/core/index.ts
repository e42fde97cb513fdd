/**
 * liveai-kit core: framework-free, runs in browsers and Node. No React, no transport SDK,
 * no Node built-ins are imported from here. The API-key client `createServiceClient` is
 * server-only and lives in `liveai-kit/server`.
 *
 * @module liveai-kit
 */
export * from './constants';
export * from './errors';
export * from './schemas/plain';
export type * from './schemas';
export * from './events';
export { DEFAULT_MAX_TRANSCRIPT_LINES } from './store/reducers';
export * from './session';
export * from './proxy-client';
export * from './keepalive';
export * from './image';
export * from './audio';
export { loadTransport, registerTransport, type TransportModule } from './transports/load';
export type * from './transports/types';
