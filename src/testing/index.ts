/**
 * liveai-kit/testing: fakes and fixtures for your own tests and stories. Runs in browsers and Node.
 *
 * @module liveai-kit/testing
 */
export { FakeTransport, fakeTransportLoader, type FakeTransportOptions } from './fake-transport';
export { createFakeProxy, type FakeProxy, type FakeProxyCall, type FakeProxyOptions, type FakeSessionRecord } from './fake-proxy';
export { createTestSession, type TestSession, type TestSessionOptions } from './test-session';
export * from './fixtures';
// The core's types the fakes and fixtures take and return.
export type * from '../core/entry-types';
