import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRANSITIONS, phaseOf, stageOf, transition, type Input, type Stage } from '../../../src/core/session/state';
import type { Phase } from '../../../src/core';
import { FakeTransport, createFakeProxy } from '../../../src/testing';
import { preloadEngine } from '../../../src/core/internal';
import { harness, settle, until, type Harness, useFakeClock } from './helpers';

let h: Harness | undefined;
afterEach(() => void vi.useRealTimers());
beforeEach(() => void useFakeClock());
afterEach(() => {
  if (h) expect(h.violations).toEqual([]); // each write kept what its phase promises
  h?.session.dispose({ end: false });
  h = undefined;
});

const active = async (opts: Parameters<typeof harness>[0] = {}) => {
  h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }), ...opts });
  await h.session.start();
  return h;
};
const phase = () => h!.session.store.getState().phase;

/**
 * One case per edge of the session state machine, each driven through the real engine (fake proxy and
 * transport) the way a user or the service would, asserting the phase the user sees after it.
 */
const EDGES: Record<string, { from: Stage; input: Input; drive: () => Promise<Phase[]> }> = {
  'idle → start': {
    from: 'idle',
    input: 'start',
    drive: async () => {
      h = harness();
      await preloadEngine(h.session); // the start's phase is then written in the click itself
      void settle(h.session.start());
      return h.phases;
    },
  },
  'running → end': {
    from: 'running',
    input: 'end',
    drive: async () => {
      await active();
      const release = h!.proxy.hold('POST /sessions/:id/end');
      const ended = h!.session.end();
      const seen = [...h!.phases];
      release();
      await ended;
      return seen;
    },
  },
  'running → fail': {
    from: 'running',
    input: 'fail',
    drive: async () => {
      await active();
      h!.transport.dropConnection();
      await until(() => phase() === 'error', 'error');
      return h!.phases;
    },
  },
  'running → unload': {
    from: 'running',
    input: 'unload',
    drive: async () => {
      await active({ endOnUnload: true });
      window.dispatchEvent(new Event('pagehide'));
      return h!.phases;
    },
  },
  'ending → settled': {
    from: 'ending',
    input: 'settled',
    drive: async () => {
      await active();
      await h!.session.end();
      return h!.phases;
    },
  },
  'ending → settleFailed': {
    from: 'ending',
    input: 'settleFailed',
    drive: async () => {
      await active({ endTimeoutMs: 30 });
      h!.proxy.failNext('POST /sessions/:id/end', 503, 'try later');
      await h!.session.end();
      return h!.phases;
    },
  },
  'ended → start': {
    from: 'ended',
    input: 'start',
    drive: async () => {
      await active();
      await h!.session.end();
      await h!.session.start();
      return h!.phases;
    },
  },
  'failed → start': {
    from: 'failed',
    input: 'start',
    drive: async () => {
      h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
      h.proxy.failNext('POST /rooms', 402, 'Insufficient funds');
      await settle(h.session.start());
      await h.session.start();
      return h.phases;
    },
  },
};

const EXPECTED_PHASES: Record<string, Phase[]> = {
  'idle → start': ['idle', 'creating'],
  'running → end': ['idle', 'creating', 'active', 'ending'],
  'running → fail': ['idle', 'creating', 'active', 'error'],
  'running → unload': ['idle', 'creating', 'active', 'ended'],
  'ending → settled': ['idle', 'creating', 'active', 'ending', 'ended'],
  'ending → settleFailed': ['idle', 'creating', 'active', 'ending', 'error'],
  'ended → start': ['idle', 'creating', 'active', 'ending', 'ended', 'creating', 'active'],
  'failed → start': ['idle', 'creating', 'error', 'creating', 'active'],
};

describe('session state machine', () => {
  it('the table has exactly the edges tested below', () => {
    const table = Object.entries(TRANSITIONS).flatMap(([from, row]) => Object.keys(row).map((input) => `${from} → ${input}`));
    expect(Object.keys(EDGES).sort()).toEqual(table.sort());
    for (const [name, e] of Object.entries(EDGES)) expect(`${e.from} → ${e.input}`).toBe(name);
  });

  for (const [name, edge] of Object.entries(EDGES)) {
    it(`edge ${name} → ${TRANSITIONS[edge.from][edge.input]}`, async () => {
      const phases = await edge.drive();
      expect(phases).toEqual(EXPECTED_PHASES[name]);
      const to = transition(edge.from, edge.input)!;
      expect(stageOf(phases.at(-1)!)).toBe(to);
    });
  }

  it('inputs outside the table are ignored: end() when idle, start() while ending', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.end();
    expect(h.phases).toEqual(['idle']);
    await h.session.start();
    const release = h.proxy.hold('POST /sessions/:id/end');
    const ending = h.session.end();
    await expect(h.session.start()).rejects.toMatchObject({ code: 'invalid_request', detail: 'cannot start while ending' });
    release();
    await ending;
    expect(transition('idle', 'end')).toBeNull();
    expect(transition('ending', 'start')).toBeNull();
  });

  it('the phase is derived: running phases from the service status and the room, the others from the stage', () => {
    const facts = { status: null, connection: 'disconnected', hasRoom: true, wasActive: false } as const;
    expect(phaseOf('running', facts)).toBe('creating');
    expect(phaseOf('running', { ...facts, status: 'QUEUED' })).toBe('queued');
    expect(phaseOf('running', { ...facts, status: 'ACTIVE' })).toBe('connecting');
    expect(phaseOf('running', { ...facts, status: 'ACTIVE', connection: 'connected' })).toBe('active');
    expect(phaseOf('running', { ...facts, status: 'ACTIVE', connection: 'reconnecting', wasActive: true })).toBe('active');
    expect((['idle', 'ending', 'ended', 'failed'] as const).map((s) => phaseOf(s, facts))).toEqual(['idle', 'ending', 'ended', 'error']);
  });
});

describe('fixes', () => {
  it('after a failed join the session status follows the service (COMPLETED once the proxy ended it), not QUEUED', async () => {
    const fake = new FakeTransport({ autoConnect: false });
    h = harness({ fake });
    const started = settle(h.session.start());
    await until(() => fake.connectCalls.length === 1 && h!.session.store.getState().sessionStatus === 'QUEUED', 'joining while queued');
    fake.failConnect('ICE failed');
    expect(await started).toMatchObject({ code: 'transport_failed' });
    await until(() => h!.session.store.getState().sessionStatus === 'COMPLETED', 'status COMPLETED');
    expect(h.session.store.getState()).toMatchObject({ phase: 'error', sessionStatus: 'COMPLETED', error: { code: 'transport_failed' } });
  });

  it('a throwing event handler is reported as handler_error', async () => {
    await active();
    h!.session.on('bot_ready', () => {
      throw new Error('boom');
    });
    h!.transport.emitEvent({ type: 'bot_ready' });
    expect(h!.errors).toEqual([{ code: 'handler_error', detail: 'an event handler threw: Error: boom' }]);
  });
});
