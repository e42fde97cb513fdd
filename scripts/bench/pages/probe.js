// The first-frame timer every bench page shares (scripts/bench/e2e.ts), so the widget, the standalone element and
// the bare livekit-client page are timed the same way: `startClickedAt` when a click on a "Start call" button
// starts (capture phase, through shadow roots), `firstFrameAt` when the first <video> on the page (or in an open
// shadow root) presents its first frame (requestVideoFrameCallback). Both performance.now() ms, and both also as
// performance marks (`bench-click`, `bench-first-frame`) so a Chromium trace can find the same window.
// `createAnsweredAt`: when the create call (the first POST …/rooms after the click) answered, from a wrapper of
// `window.fetch`, which every page looks up when it calls it (also the mark `bench-create-answered`). First frame
// minus that is the client's own part.
// Pages import `probe` by name: the package marks its files free of side effects, so a bare import would be dropped.
export const probe = (window.__bench ??= {
  startClickedAt: null,
  firstFrameAt: null,
  events: [],
  errors: [],
  session: null,
  marks: {},
  prefetched: false,
  createAnsweredAt: null,
});

const pageFetch = window.fetch;
window.fetch = async (input, init) => {
  const res = await pageFetch(input, init);
  const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
  const post = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase() === 'POST';
  const createAnswer = post && /\/rooms$/.test(new URL(url, location.href).pathname) && probe.startClickedAt !== null;
  if (createAnswer && probe.createAnsweredAt === null) {
    probe.createAnsweredAt = performance.now();
    performance.mark('bench-create-answered');
  }
  return res;
};

document.addEventListener(
  'click',
  (e) => {
    const button = e.composedPath().find((n) => n instanceof HTMLButtonElement);
    if (!button || !/Start call/.test(button.textContent ?? '') || probe.startClickedAt !== null) return;
    probe.startClickedAt = performance.now();
    performance.mark('bench-click');
  },
  true,
);

// Cheap enough to run every frame until the video exists (the widget renders it only once a call starts).
const findVideo = () =>
  document.querySelector('video') ?? document.querySelector('liveai-avatar')?.shadowRoot?.querySelector('video') ?? null;
const watch = () => {
  const video = findVideo();
  if (!video) return void requestAnimationFrame(watch);
  video.requestVideoFrameCallback(() => {
    if (probe.firstFrameAt !== null) return;
    probe.firstFrameAt = performance.now();
    performance.mark('bench-first-frame');
  });
};
watch();

// Every RTCPeerConnection the page makes (its transport's), so the bench can read the received video's WebRTC
// statistics (getStats, public) without any page exposing its connection.
const pcs = [];
const NativePC = window.RTCPeerConnection;
window.RTCPeerConnection = class extends NativePC {
  constructor(...args) {
    super(...args);
    pcs.push(this);
  }
};
/**
 * The received video's inbound-rtp statistics (the stream with the most decoded frames) of every connection, or null:
 * `{ freezeCount, totalFreezesDuration (s), framesDecoded, framesDropped, packetsLost, packetsReceived,
 * jitterBufferDelay (s), jitterBufferEmittedCount, jitterBufferTargetDelay (s) }`.
 */
probe.videoStats = async () => {
  let best = null;
  for (const pc of pcs) {
    if (pc.connectionState === 'closed') continue;
    for (const s of (await pc.getStats()).values())
      if (s.type === 'inbound-rtp' && s.kind === 'video' && (!best || s.framesDecoded > best.framesDecoded)) best = s;
  }
  if (!best) return null;
  const keys = ['freezeCount', 'totalFreezesDuration', 'framesDecoded', 'framesDropped', 'packetsLost', 'packetsReceived'];
  keys.push('jitterBufferDelay', 'jitterBufferEmittedCount', 'jitterBufferTargetDelay');
  return Object.fromEntries(keys.map((k) => [k, best[k] ?? 0]));
};
