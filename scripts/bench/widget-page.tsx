// Page of the real-LiveKit bench (scripts/bench/e2e.ts): the drop-in widget against the real proxy at /api/avatar.
// window.__bench records when "Start call" was clicked, when the <video> presented its first frame, and every
// service event with its arrival time (performance.now(), ms); `session` is the widget's session.
// `marks` breaks click → first frame down (ms since page start, first occurrence of each): the proxy calls
// (fetch wrapped), the transport chunk import, room connect, the video track, the React commit of the <video>
// srcObject, and the session's phases.
import '../../src/core/transports/livekit';
import '../../src/core/transports/daily';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../src/components';
import type { AvatarEvent } from '../../src/core';
import type { AvatarSession } from '../../src/core/session/types';
import { loadTransport } from '../../src/core/transports/load';
import type { TransportLoader } from '../../src/core/transports/types';
import '../../src/components/styles/index.css';

interface Probe {
  startClickedAt: number | null;
  firstFrameAt: number | null;
  events: Array<{ at: number; event: AvatarEvent }>;
  errors: string[];
  session: AvatarSession | null;
  marks: Record<string, number>;
  /** `?prefetch=1`: true once the rtc-a chunk is in. */
  prefetched: boolean;
}
const probe: Probe = { startClickedAt: null, firstFrameAt: null, events: [], errors: [], session: null, marks: {}, prefetched: false };
(window as unknown as { __bench: Probe }).__bench = probe;
const mark = (name: string) => void (probe.marks[name] ??= performance.now());

const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const path = new URL(String(input instanceof Request ? input.url : input), location.href).pathname.replace(/\/sessions\/[^/]+/, '/sessions/:id');
  const name = `${init?.method ?? 'GET'} ${path}`;
  mark(`${name} sent`);
  const res = await realFetch(input, init);
  mark(`${name} answered`);
  return res;
};

/** The default loader, timed: chunk import, then connect and the first video track of the transport it makes. */
const timedLoader: TransportLoader = async (kind) => {
  mark('transport import start');
  const factory = await loadTransport(kind);
  mark('transport import done');
  return () => {
    const t = factory();
    t.on('track', ({ kind: k, track }) => track && mark(`${k} track`));
    t.on('connection', (c) => mark(`room ${c}`));
    t.on('event', (e) => mark(`event ${e.type}`));
    return t;
  };
};

document.addEventListener('click', (e) => {
  if ((e.target as HTMLElement).closest('button')?.textContent?.includes('Start call')) probe.startClickedAt ??= performance.now();
}, true);
const watchVideo = () => {
  const video = document.querySelector('video');
  if (!video) return void requestAnimationFrame(watchVideo);
  let attached = false;
  const check = () => {
    if (!attached && video.srcObject) {
      attached = true;
      mark('video srcObject set');
    }
    if (!attached) requestAnimationFrame(check);
  };
  check();
  video.addEventListener('loadedmetadata', () => mark('video loadedmetadata'), { once: true });
  video.requestVideoFrameCallback(() => (probe.firstFrameAt ??= performance.now()));
};
watchVideo();

// `?transport=rtc-a`: the widget is told its transport up front (e2e.ts --transport rtc-a).
// `?prefetch=1`: the rtc-a chunk is prefetched when the page loads, as a widget could on mount or on hover of Start.
const params = new URLSearchParams(location.search);
const forced = params.get('transport');
if (params.get('prefetch') === '1') {
  mark('transport prefetch');
  void loadTransport('rtc-a').then(() => (probe.prefetched = true));
}

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    initialState="active"
    options={{ loadTransport: timedLoader, ...(forced === 'rtc-a' || forced === 'rtc-b' ? { transport: forced } : {}) }}
    onSession={(s) => {
      probe.session = s;
      s.on('*', (event) => probe.events.push({ at: performance.now(), event }));
      s.store.subscribe((st) => mark(`phase ${st.phase}`));
    }}
    onError={(e) => probe.errors.push(`${e.code}: ${e.detail}`)}
  />,
);
