import { useEffect, type ReactNode } from 'react';
import type { SessionState } from '../src/core/session/types';
import { AvatarSessionProvider } from '../src/react';
import { createFakeProxy, createTestSession, sampleAvatarImage, type FakeProxyOptions, type TestSession } from '../src/testing';

/**
 * A real session engine over the fake proxy and fake transport of `liveai-kit/testing`, seeded with
 * `initialState` (stories of connected components). Images are data URLs, so nothing leaves the page.
 */
export function storySession(initialState: Partial<SessionState> = {}, proxy: FakeProxyOptions = {}): TestSession {
  return createTestSession({
    proxy: createFakeProxy({ imageUrl: sampleAvatarImage, ...proxy }),
    initialState: { imageUrl: sampleAvatarImage, ...initialState },
  });
}

/** Provides `session` to the story and disposes it when the story unmounts. */
export function WithSession({ session, children }: { session: TestSession; children: ReactNode }) {
  useEffect(() => () => session.dispose({ end: false }), [session]);
  return <AvatarSessionProvider session={session}>{children}</AvatarSessionProvider>;
}

/** Moves a fake-proxy session from QUEUED to ACTIVE. */
export const activate = (session: TestSession) => session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');

/** `loaded` of the stories' loaders. */
export type Loaded = { session: TestSession };

/** The session a story's `loaded` holds. */
export const loadedSession = (loaded: unknown) => (loaded as Loaded).session;

/**
 * Meta of the stories of small connected parts: each story in a narrow frame, over its own fake-backed session that
 * is already active.
 */
export const narrowActiveMeta = {
  decorators: [
    (Story: () => ReactNode) => (
      <div className="sb-narrow">
        <Story />
      </div>
    ),
  ],
  loaders: [async () => ({ session: storySession({ phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() }) })],
};
