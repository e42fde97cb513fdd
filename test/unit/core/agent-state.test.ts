import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialAgentState, nextAgentState, type AgentSignal, type AgentState } from '../../../src/core/session/agent-state';
import { createTestSession, type TestSession } from '../../../src/testing';

beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: 1_000 }));
afterEach(() => void vi.useRealTimers());

/** Runs `signals` from the initial state, one ms apart; returns the state names after each. */
function run(signals: AgentSignal[], from: AgentState = initialAgentState(0)): string[] {
  let s = from;
  return signals.map((signal, i) => {
    s = nextAgentState(s, signal, i + 1) ?? s;
    return `${s.state}/${s.source}`;
  });
}

describe('agent state (pure)', () => {
  it('derives a turn: heard → listening, final → thinking, avatar audio → speaking, its end → listening', () => {
    expect(
      run([
        { kind: 'user', final: false },
        { kind: 'user', final: true },
        { kind: 'avatar', speaking: true },
        { kind: 'avatar', speaking: false },
      ]),
    ).toEqual(['listening/derived', 'thinking/derived', 'speaking/derived', 'listening/derived']);
  });

  it('the user speaking over the avatar does not hide that the avatar speaks; quiet when nothing spoke changes nothing', () => {
    expect(
      run([
        { kind: 'avatar', speaking: false },
        { kind: 'avatar', speaking: true },
        { kind: 'user', final: false },
        { kind: 'user', final: true },
      ]),
    ).toEqual(['idle/derived', 'speaking/derived', 'speaking/derived', 'speaking/derived']);
  });

  it('an agent that publishes its state wins over what the room shows, until a reset', () => {
    expect(
      run([
        { kind: 'agent', state: 'initializing' },
        { kind: 'agent', state: 'listening' },
        { kind: 'avatar', speaking: true },
        { kind: 'agent', state: 'thinking' },
        { kind: 'agent', state: 'speaking' },
        { kind: 'agent', state: 'dancing' },
        { kind: 'reset' },
        { kind: 'avatar', speaking: true },
      ]),
    ).toEqual([
      'idle/agent',
      'listening/agent',
      'listening/agent',
      'thinking/agent',
      'speaking/agent',
      'speaking/agent',
      'idle/derived',
      'speaking/derived',
    ]);
  });

  it('`since` is the time of the last change, not of the last signal; nothing changes → null', () => {
    let s = nextAgentState(initialAgentState(0), { kind: 'avatar', speaking: true }, 10)!;
    expect(s).toEqual({ state: 'speaking', since: 10, source: 'derived' });
    expect(nextAgentState(s, { kind: 'avatar', speaking: true }, 20)).toBeNull();
    s = nextAgentState(s, { kind: 'agent', state: 'speaking' }, 30)!;
    expect(s).toEqual({ state: 'speaking', since: 10, source: 'agent' });
  });
});

describe('agent state in a session (the one writer)', () => {
  let s: TestSession;
  afterEach(() => s.dispose({ end: false }));
  const state = () => s.store.getState().agentState;

  it('follows the room: user transcription events, LiveKit transcriptions, the avatar’s audio; idle after the room is left', async () => {
    s = createTestSession({ initialState: { phase: 'active', sessionStatus: 'ACTIVE' } });
    expect(state()).toMatchObject({ state: 'idle', source: 'derived' });
    vi.setSystemTime(2_000);
    s.transport.emitRoom('speaking', { who: 'user', speaking: true });
    vi.setSystemTime(2_500); // the rules load with the first signal, which keeps its own time
    await vi.waitFor(() => expect(state()).toEqual({ state: 'listening', since: 2_000, source: 'derived' }));
    s.transport.emitRoom('speaking', { who: 'user', speaking: false });
    expect(state().state).toBe('listening');
    vi.setSystemTime(3_000);
    s.transport.emitEvent({ type: 'user_transcription', transcription: 'what is the weather?' });
    expect(state()).toEqual({ state: 'thinking', since: 3_000, source: 'derived' });
    vi.setSystemTime(4_500);
    s.transport.emitRoom('speaking', { who: 'avatar', speaking: true });
    expect(state()).toEqual({ state: 'speaking', since: 4_500, source: 'derived' });
    s.transport.emitRoom('speaking', { who: 'avatar', speaking: false });
    expect(state().state).toBe('listening');
    await s.end();
    await vi.waitFor(() => expect(state()).toMatchObject({ state: 'idle', source: 'derived' }));
  });

  it('takes what a LiveKit Agents agent publishes and ignores the derived signals meanwhile', async () => {
    s = createTestSession({ initialState: { phase: 'active', sessionStatus: 'ACTIVE' } });
    s.transport.emitRoom('agentState', { state: 'listening' });
    s.transport.emitRoom('speaking', { who: 'avatar', speaking: true });
    await vi.waitFor(() => expect(state()).toMatchObject({ state: 'listening', source: 'agent' }));
    await Promise.resolve();
    expect(state()).toMatchObject({ state: 'listening', source: 'agent' });
    vi.setSystemTime(5_000);
    s.transport.emitRoom('agentState', { state: 'thinking' });
    expect(state()).toEqual({ state: 'thinking', since: 5_000, source: 'agent' });
  });

  it('records the published microphone track and forgets it when the room is left', async () => {
    s = createTestSession({ initialState: { phase: 'active', sessionStatus: 'ACTIVE' } });
    const mic = { id: 'mic', kind: 'audio' } as unknown as MediaStreamTrack;
    s.transport.emitRoom('micTrack', { track: mic });
    expect(s.store.getState().media.micTrack).toBe(mic);
    await s.end();
    expect(s.store.getState().media.micTrack).toBeNull();
  });
});
