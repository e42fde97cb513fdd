// Re-render counts per 1000 transcript events (row 4 of `npm run bench`), run by scripts/bench/renders.mjs under
// vitest + jsdom. React's <Profiler onRender> counts commits of AvatarStage, TranscriptPanel and a naive component
// that subscribes to the whole session store (the baseline). Writes JSON to $LIVEAI_BENCH_OUT.
import { writeFileSync } from 'node:fs';
import { Profiler, useSyncExternalStore } from 'react';
import { act, render } from '@testing-library/react';
import { expect, it } from 'vitest';
import { AvatarStage, TranscriptPanel } from '../../src/components';
import { AvatarSessionProvider } from '../../src/react';
import { createTestSession, type TestSession } from '../../src/testing';

/** The baseline: reads the whole store, so every store change re-renders it. */
function WholeStore({ session }: { session: TestSession }) {
  const state = useSyncExternalStore(session.store.subscribe, session.store.getState);
  return (
    <p>
      {state.transcript.length} lines, phase {state.phase}
    </p>
  );
}

/** One measurement on a fresh session and tree: `{ events, lines, ms, counts }`. */
function once(EVENTS: number) {
  const session = createTestSession({ initialState: { phase: 'active' } });
  const counts: Record<string, number> = { AvatarStage: 0, TranscriptPanel: 0, WholeStore: 0 };
  const onRender = (id: string) => void (counts[id] = (counts[id] ?? 0) + 1);
  const view = render(
    <AvatarSessionProvider session={session} endOnUnmount={false}>
      <Profiler id="AvatarStage" onRender={onRender}>
        <AvatarStage />
      </Profiler>
      <Profiler id="TranscriptPanel" onRender={onRender}>
        <TranscriptPanel />
      </Profiler>
      <Profiler id="WholeStore" onRender={onRender}>
        <WholeStore session={session} />
      </Profiler>
    </AvatarSessionProvider>,
  );
  for (const k of Object.keys(counts)) counts[k] = 0; // mount renders are not counted
  const t0 = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    // One event per act(): each is its own commit, as events arriving over the network would be.
    act(() => {
      session.transport.emitEvent(
        i % 2
          ? { type: 'agent_transcription', transcription: `agent line ${i}` }
          : { type: 'user_transcription', transcription: `user line ${i}` },
      );
    });
  }
  const ms = performance.now() - t0;
  const lines = session.store.getState().transcript.length;
  view.unmount();
  return { events: EVENTS, lines, ms, counts };
}

it('counts renders per 1000 transcript events', () => {
  const results = Array.from({ length: Number(process.env.LIVEAI_BENCH_RUNS ?? 5) }, () => once(1000));
  for (const r of results) expect(r.lines).toBeGreaterThan(0);
  writeFileSync(process.env.LIVEAI_BENCH_OUT ?? '/dev/stdout', JSON.stringify(results));
});
