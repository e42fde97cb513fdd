// Test page of widget-interrupt.test.ts: the drop-in widget attached to a LiveKit Agents room (the attach session
// {session_id, client_token, room_url, token} comes in the URL hash as JSON), text-only. window.__widget records the
// phases, the agent's states and the errors.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { AvatarSession } from '../../../src/core';
import type { ClientSession } from '../../../src/core/schemas/proxy';
import '../../../src/components/styles/index.css';

export interface WidgetProbe {
  phases: string[];
  agentStates: string[];
  errors: string[];
  session: AvatarSession | null;
}
const probe: WidgetProbe = { phases: [], agentStates: [], errors: [], session: null };
(window as unknown as { __widget: WidgetProbe }).__widget = probe;

const session = JSON.parse(decodeURIComponent(location.hash.slice(1))) as ClientSession;

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    options={{ flow: { kind: 'attach', session }, transport: 'rtc-a' }}
    variant="inline"
    title="Ada"
    microphone={false}
    onSession={(s) => {
      probe.session = s;
      s.store.subscribe((st, prev) => {
        if (st.agentState.state !== prev.agentState.state) probe.agentStates.push(st.agentState.state);
      });
    }}
    onPhaseChange={(p) => void probe.phases.push(p)}
    onError={(e) => void probe.errors.push(`${e.code}: ${e.detail}`)}
  />,
);
