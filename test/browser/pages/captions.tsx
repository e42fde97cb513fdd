// Test page (issue 40.2): the drop-in widget attached to a LiveKit Agents room in which the published avatar plugin
// drives the local avatar, to watch its captions keep in step with the voice. The attach session
// ({session_id, client_token, room_url, token}) comes in the URL hash as JSON (none: a hosted room of the local
// service); `?lang=ar` shows the widget in Arabic, `?mic=off` makes it text-only.
// Records every caption the visitor sees (its text on screen, and the whole line screen readers get) and the avatar
// audio level the page receives; read through window.__captions.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import { createAvatarSession } from '../../../src/core';
import type { ClientSession } from '../../../src/core/schemas/proxy';
import { ar } from '../../../src/components/i18n/ar';
import '../../../src/components/styles/index.css';

/** What the page records on `window.__captions`. */
export interface CaptionsProbe {
  phases: string[];
  /** Each change of the caption on screen: its visible text and the whole line in its screen-reader copy, epoch ms. */
  captions: { t: number; shown: string; whole: string }[];
  /** Received avatar audio every 50 ms: inbound-rtp `audioLevel` (0–1), epoch ms. */
  audio: { t: number; level: number }[];
  /** The agent's state as the session saw it (`speaking` while the avatar plays its line). */
  states: { t: number; state: string; source: string }[];
  /** The transcript in the store: each line's whole text and what was said of it (`spoken`, null once said). */
  lines: { role: string; text: string; spoken: string | null }[];
}
const probe: CaptionsProbe = { phases: [], captions: [], audio: [], states: [], lines: [] };
(window as unknown as { __captions: CaptionsProbe }).__captions = probe;

// Without a hash: a hosted room of the local service's own agent (it answers a chat with a line and speech).
const attach = location.hash.length > 1 ? (JSON.parse(decodeURIComponent(location.hash.slice(1))) as ClientSession) : null;
const session = createAvatarSession(
  attach
    ? {
        proxyUrl: '/api/avatar',
        flow: { kind: 'attach', session: attach },
        transport: 'rtc-a',
        // The pre-connect page (preconnect.tsx) keeps pre-connect audio at its default (on for attached sessions);
        // the captions pages turn it off, so their microphone is switched on once the avatar is live.
        ...((window as unknown as { __preConnectAudio?: 'default' }).__preConnectAudio === 'default' ? {} : { preConnectAudio: false }),
      }
    : { proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' } },
);
(window as unknown as { __session: typeof session }).__session = session;
session.store.subscribe((s, prev) => {
  if (s.phase !== prev.phase) probe.phases.push(s.phase);
  if (s.agentState !== prev.agentState) probe.states.push({ t: Date.now(), state: s.agentState.state, source: s.agentState.source });
  if (s.transcript !== prev.transcript) probe.lines = s.transcript.map((l) => ({ role: l.role, text: l.text, spoken: l.spoken ?? null }));
});

new MutationObserver(() => {
  const shown = document.querySelector('.liveai-captions__line bdi')?.textContent ?? '';
  const whole = document.querySelector('.liveai-captions .liveai-visually-hidden bdi')?.textContent ?? '';
  const last = probe.captions.at(-1);
  if (last?.shown !== shown || last.whole !== whole) probe.captions.push({ t: Date.now(), shown, whole });
}).observe(document.body, { subtree: true, childList: true, characterData: true });

setInterval(async () => {
  let level = 0;
  for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    if (pc.connectionState === 'closed') continue;
    (await pc.getStats()).forEach((s: Record<string, unknown>) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') level = Math.max(level, Number(s.audioLevel ?? 0));
    });
  }
  probe.audio.push({ t: Date.now(), level });
}, 50);

const params = new URLSearchParams(location.search);
const arabic = params.get('lang') === 'ar';
createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    session={session}
    variant="inline"
    transcriptMode="caption"
    title={arabic ? 'أفاتار' : 'Ava'}
    theme="light"
    // ?mic=off: a text-only widget. Chromium's fake microphone plays a tone, which a LiveKit agent's voice activity
    // detection, slow on a loaded machine, can take for the visitor talking and interrupt its reply mid-caption.
    microphone={params.get('mic') !== 'off'}
    {...(arabic ? { messages: ar } : {})}
  />,
);
