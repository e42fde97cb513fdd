// Test page (issue 29): a session on the core alone, joined to a real LiveKit room, with the session option
// `jitterBufferTargetMs` from `?jbt=MS` (absent: the default), or attached to the session of `#<ClientSession JSON>`
// (a browser behind the impaired link, which reaches LiveKit at another address). It shows the avatar's video; the test reads the
// receivers' jitterBufferTarget and the received video's getStats. `window.__jbt` gets the phases and errors.
import '../../../src/core/transports/livekit';
import { createAvatarSession } from '../../../src/core';

const jbt = new URLSearchParams(location.search).get('jbt');
const attach = location.hash ? (JSON.parse(decodeURIComponent(location.hash.slice(1))) as object) : null;
const probe = { phases: [] as string[], errors: [] as string[] };
(window as unknown as { __jbt: typeof probe }).__jbt = probe;
const session = createAvatarSession({
  proxyUrl: '/api/avatar',
  flow: attach ? { kind: 'attach', session: attach as never } : { kind: 'room', agentId: 'agent-demo' },
  ...(jbt === null ? {} : { jitterBufferTargetMs: Number(jbt) }),
});
const video = document.querySelector('video')!;
session.store.subscribe((s) => {
  if (probe.phases.at(-1) !== s.phase) probe.phases.push(s.phase);
  if (s.error) probe.errors.push(`${s.error.code}: ${s.error.detail}`);
  const track = s.media.videoTrack;
  if (track && (video.srcObject as MediaStream | null)?.getVideoTracks()[0] !== track) video.srcObject = new MediaStream([track]);
});
document.getElementById('start')!.addEventListener('click', () => void session.start());
