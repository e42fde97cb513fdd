// Page of the real-LiveKit bench (scripts/bench/e2e.ts): the drop-in widget against the real proxy at /api/avatar.
// window.__bench records when "Start call" was clicked, when the <video> presented its first frame, and every
// service event with its arrival time (performance.now(), ms); `session` is the widget's session.
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../src/components';
import type { AvatarEvent } from '../../src/core';
import type { AvatarSession } from '../../src/core/session/types';
import '../../src/components/styles/index.css';

interface Probe {
  startClickedAt: number | null;
  firstFrameAt: number | null;
  events: Array<{ at: number; event: AvatarEvent }>;
  errors: string[];
  session: AvatarSession | null;
}
const probe: Probe = { startClickedAt: null, firstFrameAt: null, events: [], errors: [], session: null };
(window as unknown as { __bench: Probe }).__bench = probe;

document.addEventListener('click', (e) => {
  if ((e.target as HTMLElement).closest('button')?.textContent?.includes('Start call')) probe.startClickedAt ??= performance.now();
}, true);
const watchVideo = () => {
  const video = document.querySelector('video');
  if (!video) return void requestAnimationFrame(watchVideo);
  video.requestVideoFrameCallback(() => (probe.firstFrameAt ??= performance.now()));
};
watchVideo();

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    initialState="active"
    onSession={(s) => {
      probe.session = s;
      s.on('*', (event) => probe.events.push({ at: performance.now(), event }));
    }}
    onError={(e) => probe.errors.push(`${e.code}: ${e.detail}`)}
  />,
);
