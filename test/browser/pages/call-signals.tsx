// Test page (issue 27): the agent state, audio levels and call quality of a real LiveKit call, on the hooks and the
// new primitives. The hash is JSON: `{"attach": ClientSession}` (a LiveKit Agents room) or `{"room": agentId}` (a
// hosted room of the local service). Everything seen is recorded on window.__signals.
import '../../../src/core/transports/livekit';
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { AvatarSessionOptions, CallStats } from '../../../src/core';
import { AvatarAudio, AvatarStage, AvatarVideo, BarVisualizer, ConnectionQuality } from '../../../src/components';
import { AvatarSessionProvider, useAgentState, useAudioLevel, useCallStats, useControl, useMedia, useSession } from '../../../src/react';

/** What the page records, read by test/browser/call-signals.test.ts. */
export interface SignalsProbe {
  phases: string[];
  errors: string[];
  /** Each change of the agent state: state, source, since (epoch ms). */
  states: { state: string; source: string; since: number }[];
  /** Audio levels (0–1) as the hooks report them, with epoch ms. */
  avatar: { t: number; level: number }[];
  mic: { t: number; level: number }[];
  stats: CallStats[];
}
const probe: SignalsProbe = { phases: [], errors: [], states: [], avatar: [], mic: [], stats: [] };
(window as unknown as { __signals: SignalsProbe }).__signals = probe;

const hash = JSON.parse(decodeURIComponent(location.hash.slice(1) || '{}')) as { attach?: object; room?: string };
const flow = (
  hash.attach ? { kind: 'attach', session: hash.attach } : { kind: 'room', agentId: hash.room ?? 'agent-demo' }
) as AvatarSessionOptions['flow'];

function Call() {
  const { phase, error, start, endSession } = useSession();
  const media = useMedia();
  const { sendChat } = useControl();
  const agent = useAgentState();
  const avatarLevel = useAudioLevel('avatar');
  const micLevel = useAudioLevel('microphone');
  const stats = useCallStats({ intervalMs: 1000 });
  useEffect(() => void probe.phases.push(phase), [phase]);
  useEffect(() => void (error && probe.errors.push(`${error.code}: ${error.detail}`)), [error]);
  useEffect(() => void probe.states.push({ ...agent }), [agent]);
  useEffect(() => void probe.avatar.push({ t: Date.now(), level: avatarLevel }), [avatarLevel]);
  useEffect(() => void probe.mic.push({ t: Date.now(), level: micLevel }), [micLevel]);
  useEffect(() => void (stats && probe.stats.push(stats)), [stats]);
  return (
    <section style={{ display: 'grid', gap: 12, maxWidth: 420 }}>
      <p>
        <button type="button" onClick={() => void start().catch(() => {})}>
          Call
        </button>{' '}
        <button type="button" onClick={() => void media.setMicEnabled(!media.micEnabled)}>
          {media.micEnabled ? 'Mic off' : 'Mic on'}
        </button>{' '}
        <button type="button" onClick={() => void sendChat('How are you today?')}>
          Ask
        </button>{' '}
        <button type="button" onClick={() => void endSession()}>
          Hang up
        </button>
      </p>
      <p data-testid="phase">
        {phase} · agent {agent.state} ({agent.source})
      </p>
      <AvatarVideo aria-label="Avatar" width={368} height={560} style={{ background: '#111' }} />
      <AvatarAudio />
      <p style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
        <BarVisualizer bars={7} /> <BarVisualizer source="microphone" /> <ConnectionQuality />
      </p>
      {/* The styled stage, during the call only (its "Start call" would be a second button named like "Call"). */}
      {phase === 'active' && (
        <div style={{ width: 184 }}>
          <AvatarStage label="Stage" />
        </div>
      )}
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', flow, transport: 'rtc-a' }}>
    <Call />
  </AvatarSessionProvider>,
);
