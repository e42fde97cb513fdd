// Reliability test page: the drop-in widget against the real proxy at /api/avatar, with a probe the tests poll.
// window.__rel: phases, session ids, event types, user/agent transcriptions, room connection states, typed errors
// (code + detail), end reason.
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import '../../../src/components/styles/index.css';

interface Probe {
  phases: string[];
  sessionIds: string[];
  events: string[];
  /** `user_transcription` texts in arrival order (the avatar echoes each chat message it received). */
  heard: string[];
  /** Room connection states as the store saw them (`connecting`, `connected`, `reconnecting`, `disconnected`). */
  connections: string[];
  errors: { code: string; detail: string }[];
  ended: { reason: string; cost: number | null | undefined } | null;
}
const probe: Probe = { phases: [], sessionIds: [], events: [], heard: [], connections: [], errors: [], ended: null };
(window as unknown as { __rel: Probe }).__rel = probe;

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    title="Reliability avatar"
    onSession={(s) => {
      s.on('*', (e) => probe.events.push(e.type));
      s.on('user_transcription', (e) => probe.heard.push(e.transcription));
      s.store.subscribe((st) => {
        if (st.sessionId && !probe.sessionIds.includes(st.sessionId)) probe.sessionIds.push(st.sessionId);
        if (probe.connections.at(-1) !== st.media.connection) probe.connections.push(st.media.connection);
      });
    }}
    onPhaseChange={(p) => probe.phases.push(p)}
    onError={(e) => probe.errors.push({ code: e.code, detail: e.detail ?? '' })}
    onEnd={(e) => (probe.ended = { reason: e.reason ?? '', cost: e.cost })}
  />,
);
