// Test page (issue 5): the widget with its image swapper on a real rtc-a room through the proxy. The test drives the
// swapper like a user (file input, URL field) and reads what happened from window.__swap.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { AvatarSession } from '../../../src/core/session/types';
import { meanRgb } from './frames';
import '../../../src/components/styles/index.css';

interface SwapProbe {
  phases: string[];
  /** Every service event type, in arrival order. */
  events: string[];
  /** `image_change_error` texts. */
  imageErrors: string[];
  errors: { code: string; detail: string }[];
  /** The engine, to send an image the swapper would refuse to send (bad bytes). */
  session: AvatarSession | null;
  /** Mean RGB of the frame's background corner, or null before the first frame. */
  corner: () => number[] | null;
}
const probe: SwapProbe = { phases: [], events: [], imageErrors: [], errors: [], session: null, corner: () => meanRgb() };
(window as unknown as { __swap: SwapProbe }).__swap = probe;

// ?maxInline=N&upload=BASE: prepared images must fit N bytes, else they are POSTed to BASE/upload (uploadImage),
// which answers with the public URL the session then sends as image_url.
const params = new URLSearchParams(location.search);
const upload = params.get('upload');
const options = {
  ...(params.has('maxInline') ? { inlineImageMaxBytes: Number(params.get('maxInline')) } : {}),
  ...(upload
    ? {
        uploadImage: async (image: Blob) =>
          ((await (await fetch(`${upload}/upload`, { method: 'POST', body: image })).json()) as { url: string }).url,
      }
    : {}),
};

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    options={options}
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    title="Swap avatar"
    imageSwapper
    onSession={(s) => {
      probe.session = s;
      s.on('*', (e) => probe.events.push(e.type));
      s.on('image_change_error', (e) => probe.imageErrors.push(String(e.error)));
    }}
    onPhaseChange={(p) => probe.phases.push(p)}
    onError={(e) => probe.errors.push({ code: e.code, detail: e.detail ?? '' })}
  />,
);
