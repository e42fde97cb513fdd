// Type tests, checked by `npm run typecheck` (tsc): the session state is a union by phase, so a user's `if` on
// `phase` narrows the other fields, in the store and in what `useSession()` returns.
import { expectTypeOf } from 'vitest';
import type { EndReason, LiveAiError, SessionState, SessionStatus } from '../../../src/core';
import type { UseSessionResult } from '../../../src/react';

declare const s: SessionState;

if (s.phase === 'active') {
  expectTypeOf(s.sessionId).toEqualTypeOf<string>();
  expectTypeOf(s.activeAt).toEqualTypeOf<number>();
  expectTypeOf(s.startedAt).toEqualTypeOf<number>();
  expectTypeOf(s.error).toEqualTypeOf<null>();
  expectTypeOf(s.endReason).toEqualTypeOf<null>();
  expectTypeOf(s.sessionStatus).toEqualTypeOf<'QUEUED' | 'ACTIVE' | null>();
}
if (s.phase === 'queued') {
  expectTypeOf(s.sessionStatus).toEqualTypeOf<'QUEUED'>();
  expectTypeOf(s.queuedAt).toEqualTypeOf<number>();
  expectTypeOf(s.sessionId).toEqualTypeOf<string>();
}
if (s.phase === 'error') {
  expectTypeOf(s.error).toEqualTypeOf<LiveAiError>();
  expectTypeOf(s.endReason).toEqualTypeOf<EndReason>();
}
if (s.phase === 'ended') {
  expectTypeOf(s.endReason).toEqualTypeOf<EndReason>();
  expectTypeOf(s.error).toEqualTypeOf<null>();
  expectTypeOf(s.sessionStatus).toEqualTypeOf<SessionStatus | null>();
}
if (s.phase === 'idle') {
  expectTypeOf(s.sessionId).toEqualTypeOf<null>();
  expectTypeOf(s.startedAt).toEqualTypeOf<null>();
}
// Without a check nothing is promised.
expectTypeOf(s.sessionId).toEqualTypeOf<string | null>();
expectTypeOf(s.error).toEqualTypeOf<LiveAiError | null>();

declare const r: UseSessionResult;
if (r.phase === 'active') {
  expectTypeOf(r.sessionId).toEqualTypeOf<string>();
  expectTypeOf(r.activeAt).toEqualTypeOf<number>();
  expectTypeOf(r.start).toEqualTypeOf<() => Promise<void>>();
}
if (r.phase === 'error') expectTypeOf(r.error.code).toBeString();
