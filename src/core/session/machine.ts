import { derivePhase, type Facts } from './phase';
import type { Phase } from './types';

/**
 * The session engine's state machine. `Stage` is where the session is in its life; the `Phase` users see is
 * derived from the stage and, while running, from what the service and the room report (see `phaseOf`).
 */
export type Stage = 'idle' | 'running' | 'ending' | 'ended' | 'failed';

/**
 * What moves the machine:
 * - `start`: `start()` was called;
 * - `end`: `end()`, `idle_timeout`, the service's `COMPLETED`, or an unmount; the engine leaves and settles;
 * - `fail`: a fatal error while running (create/join failed, the room was lost, `FAILED`/`TIMED_OUT`, 404);
 * - `settled`: the teardown of an `end` finished (final status known or waited for long enough);
 * - `settleFailed`: the teardown of an `end` could not end the session at the service;
 * - `unload`: the page is going away (the end beacon was sent).
 */
export type Input = 'start' | 'end' | 'fail' | 'settled' | 'settleFailed' | 'unload';

/** Every allowed edge: stage → input → next stage. An input missing from a row is ignored in that stage. */
export const TRANSITIONS: { readonly [S in Stage]: Readonly<Partial<Record<Input, Stage>>> } = {
  idle: { start: 'running' },
  running: { end: 'ending', fail: 'failed', unload: 'ended' },
  ending: { settled: 'ended', settleFailed: 'failed' },
  ended: { start: 'running' },
  failed: { start: 'running' },
};

/** The next stage, or null when `input` is not allowed in `stage`. Pure. */
export const transition = (stage: Stage, input: Input): Stage | null => TRANSITIONS[stage][input] ?? null;

const PHASE_OF_STAGE = { idle: 'idle', ending: 'ending', ended: 'ended', failed: 'error' } as const;

/** The phase users see: `creating`/`queued`/`connecting`/`active` while running (see `derivePhase`), else the stage's. Pure. */
export const phaseOf = (stage: Stage, facts: Facts): Phase => (stage === 'running' ? derivePhase(facts) : PHASE_OF_STAGE[stage]);

/** The stage a seeded phase stands for (stories and tests that start from a given state). */
export function stageOf(phase: Phase): Stage {
  if (phase === 'idle' || phase === 'ending' || phase === 'ended') return phase;
  return phase === 'error' ? 'failed' : 'running';
}
