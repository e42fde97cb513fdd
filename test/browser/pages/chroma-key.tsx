// Test page of chroma-key.test.ts: the widget with `chromaKey` on a real rtc-a room through the proxy. The test
// swaps the avatar to a portrait on a green backdrop (`__chroma.greenBackdrop()`) and screenshots the stage with a
// transparent page background. ?color=#rrggbb keys another colour.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { AvatarSession } from '../../../src/core/session/types';
import '../../../src/components/styles/index.css';

interface ChromaProbe {
  events: string[];
  errors: { code: string; detail: string }[];
  session: AvatarSession | null;
  /** Sends the avatar a 368×560 portrait: a skin-coloured face and a blue shirt on a solid `backdrop` colour. */
  swapTo: (backdrop: string) => Promise<void>;
}
const probe: ChromaProbe = {
  events: [],
  errors: [],
  session: null,
  async swapTo(backdrop) {
    const canvas = new OffscreenCanvas(368, 560);
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = backdrop;
    ctx.fillRect(0, 0, 368, 560);
    ctx.fillStyle = '#2f5fd0';
    ctx.beginPath();
    ctx.ellipse(184, 600, 170, 160, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#f0c8a4';
    ctx.beginPath();
    ctx.ellipse(184, 250, 120, 160, 0, 0, Math.PI * 2);
    ctx.fill();
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    await probe.session!.updateImage({ blob });
  },
};
(window as unknown as { __chroma: ChromaProbe }).__chroma = probe;

const color = new URLSearchParams(location.search).get('color');
createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    title="Keyed avatar"
    chromaKey={color ? { color } : true}
    onSession={(s) => {
      probe.session = s;
      s.on('*', (e) => probe.events.push(e.type));
    }}
    onError={(e) => probe.errors.push({ code: e.code, detail: e.detail ?? '' })}
  />,
);
