// Page of the real-LiveKit bench (scripts/bench/e2e.ts): the drop-in widget against the real proxy at `?proxy=`
// (default /api/avatar). probe.js times click → first frame; window.__bench also gets every service event with
// its arrival time (performance.now(), ms) and `session`, the widget's session.
// `?marks=1`: `marks` breaks click → first frame down (ms since page start, first occurrence of each): the proxy calls
// (fetch wrapped), the transport chunk import, room connect, the video track, the React commit of the <video>
// srcObject, and the session's phases.
import { livekitTransport } from '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { AvatarEvent } from '../../../src/core';
import type { AvatarSession } from '../../../src/core/session/types';
import { loadTransport, registerTransport } from '../../../src/core/transports/choose';
import type { TransportLoader } from '../../../src/core/transports/types';
import '../../../src/components/styles/index.css';
import { probe as sharedProbe } from './probe.js';

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
const probe = sharedProbe as Probe;
// What `import 'liveai-kit/livekit'` does in an app (a bare import of a source file would be dropped here: the
// package marks its files free of side effects).
registerTransport(livekitTransport);
// `?cold=1` (e2e.ts --cold): a second kind registered too (never loaded here), so on a first visit (a fresh browser
// context) only the proxy's `GET /transport` answer tells the page which transport to fetch before the click.
if (new URLSearchParams(location.search).get('cold') === '1')
  registerTransport({ kind: 'rtc-b', load: () => Promise.reject(new Error('not used by the bench')) });
const params = new URLSearchParams(location.search);
/** `?marks=1` (e2e.ts --marks): the timeline below is recorded; off by default, so the page runs as users ship it. */
const MARKS = params.get('marks') === '1';
const mark = (name: string) => void (MARKS && (probe.marks[name] ??= performance.now()));

const realFetch = window.fetch.bind(window);
if (MARKS)
  window.fetch = async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input), location.href).pathname.replace(
      /\/sessions\/[^/]+/,
      '/sessions/:id',
    );
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

// `?transport=rtc-a`: the widget is told its transport up front (e2e.ts --transport rtc-a).
// `?prefetch=1`: the rtc-a chunk is prefetched when the page loads, as a widget could on mount or on hover of Start.
const forced = params.get('transport');
if (params.get('prefetch') === '1') {
  mark('transport prefetch');
  void loadTransport('rtc-a').then(() => (probe.prefetched = true));
}

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl={params.get('proxy') ?? '/api/avatar'}
    agentId="agent-demo"
    variant="inline"
    initialState="active"
    options={{
      ...(MARKS ? { loadTransport: timedLoader } : {}),
      ...(forced === 'rtc-a' || forced === 'rtc-b' ? { transport: forced } : {}),
    }}
    onSession={(s) => {
      probe.session = s;
      s.on('*', (event) => probe.events.push({ at: performance.now(), event }));
      if (MARKS) s.store.subscribe((st) => mark(`phase ${st.phase}`));
    }}
    onError={(e) => probe.errors.push(`${e.code}: ${e.detail}`)}
  />,
);
