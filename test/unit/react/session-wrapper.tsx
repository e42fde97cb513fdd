import type { ReactNode } from 'react';
import { afterEach } from 'vitest';
import type { AvatarSession } from '../../../src/core';
import { AvatarSessionProvider } from '../../../src/react';
import { createTestSession, type TestSession } from '../../../src/testing';

/** `renderHook` wrapper: the hooks under test read `session` from an `AvatarSessionProvider`. */
export const wrap = (session: AvatarSession) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <AvatarSessionProvider session={session}>{children}</AvatarSessionProvider>;
  };

/**
 * Returns a `make(options)` that creates test sessions (real engine over the testing fakes, `defaults` first)
 * and disposes them, without ending, after each test of the calling file.
 */
export function testSessions(defaults: Parameters<typeof createTestSession>[0] = {}) {
  let sessions: AvatarSession[] = [];
  afterEach(() => {
    sessions.forEach((s) => s.dispose({ end: false }));
    sessions = [];
  });
  return (o: Parameters<typeof createTestSession>[0] = {}): TestSession => {
    const s = createTestSession({ ...defaults, ...o });
    sessions.push(s);
    return s;
  };
}
