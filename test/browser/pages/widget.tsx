// Test page of the browser suite (widget-e2e, reliability-faults, reliability-livekit-restart): the drop-in widget
// against the real proxy at /api/avatar. Everything the page learns goes into window.__liveai so tests can wait
// for it. Query: ?agent=ID (default agent-demo), ?theme=light|dark, ?images (show the image swapper).
import '../../../src/core/transports/livekit';
import '../../../src/core/transports/daily';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { AvatarEvent, SessionMetric } from '../../../src/core';
import type { Phase } from '../../../src/core/session/types';
import '../../../src/components/styles/index.css';

export interface WidgetProbe {
  phases: Phase[];
  /** Session ids in the order the store saw them: one click, one paid session. */
  sessionIds: string[];
  events: AvatarEvent[];
  /** `user_transcription` texts in arrival order (the local service echoes each chat message it received). */
  heard: string[];
  /** Room connection states as the store saw them (`connecting`, `connected`, `reconnecting`, `disconnected`). */
  connections: string[];
  errors: { code: string; detail: string }[];
  ended: { reason: string; cost: number | null | undefined } | null;
  /** Phases as the store went through them (each commit; `phases` is what the React callback saw). */
  storePhases: Phase[];
  /** Distinct video tracks the store held, in order (one per room joined). */
  videoTracks: number;
  /** performance.now() of the click on "Start call" and of the first frame the <video> presented, ms. */
  startClickedAt: number | null;
  firstFrameAt: number | null;
  /** The room URL, token and identity of the page's viewer, once the session was created (participants.test.ts). */
  room: { url: string; token: string; identity: string } | null;
  /**
   * The `<video>`'s readyState the first time the stage was seen active, holding a video track and showing no overlay
   * ("Connecting…") after the click. A video track LiveKit offers only after the join can come after the overlay left
   * (active without a track yet); the stage is then seen next when its frame shows.
   */
  overlayLeftAtReadyState: number | null;
  /** What the session option `onMetric` reported, in order (metrics.test.ts). */
  metrics: SessionMetric[];
}
const probe: WidgetProbe = {
  phases: [],
  sessionIds: [],
  events: [],
  heard: [],
  connections: [],
  errors: [],
  ended: null,
  storePhases: [],
  videoTracks: 0,
  startClickedAt: null,
  firstFrameAt: null,
  overlayLeftAtReadyState: null,
  room: null,
  metrics: [],
};
(window as unknown as { __liveai: WidgetProbe }).__liveai = probe;

document.addEventListener(
  'click',
  (e) => {
    if ((e.target as HTMLElement).closest('button')?.textContent?.includes('Start call')) probe.startClickedAt ??= performance.now();
  },
  true,
);
const watchVideo = () => {
  const video = document.querySelector('video');
  if (!video || !('requestVideoFrameCallback' in video)) return void requestAnimationFrame(watchVideo);
  video.requestVideoFrameCallback(() => (probe.firstFrameAt ??= performance.now()));
};
watchVideo();
new MutationObserver(() => {
  const stage = document.querySelector('.liveai-stage');
  if (!stage || probe.startClickedAt === null || probe.overlayLeftAtReadyState !== null) return;
  const video = stage.querySelector('video');
  const hasTrack = ((video?.srcObject as MediaStream | null)?.getVideoTracks().length ?? 0) > 0;
  if (stage.getAttribute('data-phase') === 'active' && hasTrack && !stage.querySelector('.liveai-stage__overlay'))
    probe.overlayLeftAtReadyState = video!.readyState;
}).observe(document.body, { subtree: true, childList: true, attributes: true });

const params = new URLSearchParams(location.search);
createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId={params.get('agent') ?? 'agent-demo'}
    variant="inline"
    title="Demo avatar"
    theme={(params.get('theme') as 'light' | 'dark' | null) ?? 'light'}
    imageSwapper={params.has('images')}
    options={{ onMetric: (m) => probe.metrics.push(m) }}
    onSession={(s) => {
      s.on('*', (e) => probe.events.push(e));
      s.on('user_transcription', (e) => probe.heard.push(e.transcription));
      let video: MediaStreamTrack | null = null;
      s.store.subscribe((st) => {
        if (st.sessionId && !probe.sessionIds.includes(st.sessionId)) probe.sessionIds.push(st.sessionId);
        const c = s.getClientSession();
        if (c?.room_url && c.token && probe.room?.token !== c.token) {
          const { sub } = JSON.parse(atob(c.token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string };
          probe.room = { url: c.room_url, token: c.token, identity: sub };
        }
        if (probe.storePhases.at(-1) !== st.phase) probe.storePhases.push(st.phase);
        if (st.media.videoTrack && st.media.videoTrack !== video) {
          video = st.media.videoTrack;
          probe.videoTracks++;
        }
        if (probe.connections.at(-1) !== st.media.connection) probe.connections.push(st.media.connection);
      });
    }}
    onPhaseChange={(p) => probe.phases.push(p)}
    onError={(e) => probe.errors.push({ code: e.code, detail: e.detail ?? '' })}
    onEnd={(e) => (probe.ended = { reason: e.reason ?? '', cost: e.cost })}
  />,
);
