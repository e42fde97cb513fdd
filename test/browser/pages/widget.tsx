// Test page: the drop-in widget against the real proxy at /api/avatar (used by the browser suite and the bench).
// Everything the page learns goes into window.__liveai so the test can wait for it.
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { AvatarEvent } from '../../../src/core';
import type { Phase } from '../../../src/core/session/types';
import '../../../src/components/styles/index.css';

interface Probe {
  phases: Phase[];
  events: AvatarEvent[];
  errors: string[];
  ended: { reason: string; cost: number | null | undefined } | null;
  startClickedAt: number | null;
  firstFrameAt: number | null;
}
const probe: Probe = { phases: [], events: [], errors: [], ended: null, startClickedAt: null, firstFrameAt: null };
(window as unknown as { __liveai: Probe }).__liveai = probe;

// Time to first decoded frame: the click on "Start call", then the first frame the <video> presents.
document.addEventListener('click', (e) => {
  if ((e.target as HTMLElement).closest('button')?.textContent?.includes('Start call')) probe.startClickedAt ??= performance.now();
}, true);
const watchVideo = () => {
  const video = document.querySelector('video');
  if (!video || !('requestVideoFrameCallback' in video)) return void requestAnimationFrame(watchVideo);
  video.requestVideoFrameCallback(() => (probe.firstFrameAt ??= performance.now()));
};
watchVideo();

const params = new URLSearchParams(location.search);
createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId={params.get('agent') ?? 'agent-demo'}
    variant="inline"
    title="Demo avatar"
    theme={(params.get('theme') as 'light' | 'dark' | null) ?? 'light'}
    imageSwapper={params.has('images')}
    onSession={(s) => s.on('*', (e) => probe.events.push(e))}
    onPhaseChange={(p) => probe.phases.push(p)}
    onError={(e) => probe.errors.push(`${e.code}: ${e.detail}`)}
    onEnd={(e) => (probe.ended = { reason: e.reason ?? '', cost: e.cost })}
  />,
);
