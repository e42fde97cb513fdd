// Test page (issue 13): a front end on liveai-kit's hooks attaches to a LiveKit Agents room in which the published
// avatar plugin drives the local avatar. The attach session ({session_id, client_token, room_url, token}) comes in
// the URL hash as JSON. Records mouth samples per presented frame, the avatar audio level, events and the
// transcript; read through window.__agent.
import '../../../src/core/transports/livekit';
import { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { ClientSession } from '../../../src/core/schemas/proxy';
import { AvatarSessionProvider, useAvatarEvents, useMedia, useSession, useTranscript } from '../../../src/react';
import { sampleMouth, type MouthSample } from './frames';
import { StopSpeakingButton } from '../../../src/components/primitives/StopSpeakingButton';

/** What the page records on `window.__agent`, read by the agent-plugin test and the agent bench. */
export interface AgentProbe {
  phases: string[];
  events: string[];
  errors: string[];
  mouth: MouthSample[];
  /** Received avatar audio every 50 ms: inbound-rtp `audioLevel` (0–1), epoch ms. */
  audio: { t: number; level: number }[];
  transcript: { role: string; text: string }[];
  /** RMS (0–1) of the avatar audio track every ~10 ms through WebAudio, epoch ms (for the bench's timings). */
  rms: { t: number; rms: number }[];
}
const probe: AgentProbe = { phases: [], events: [], errors: [], mouth: [], audio: [], transcript: [], rms: [] };
(window as unknown as { __agent: AgentProbe }).__agent = probe;

const session = JSON.parse(decodeURIComponent(location.hash.slice(1))) as ClientSession;

function Call() {
  const { phase, error, start } = useSession();
  const media = useMedia();
  const lines = useTranscript();
  const video = useRef<HTMLVideoElement>(null);
  useAvatarEvents('*', (e) => void probe.events.push(e.type));
  useEffect(() => void start(), [start]);
  useEffect(() => void probe.phases.push(phase), [phase]);
  useEffect(() => void (error && probe.errors.push(`${error.code}: ${error.detail}`)), [error]);
  useEffect(() => void (probe.transcript = lines.map((l) => ({ role: l.role, text: l.text }))), [lines]);
  useEffect(() => (media.audioTrack ? analyse(media.audioTrack) : undefined), [media.audioTrack]);
  useEffect(() => {
    if (video.current) video.current.srcObject = media.videoTrack ? new MediaStream([media.videoTrack]) : null;
  }, [media.videoTrack]);
  return (
    <section>
      <p data-testid="phase">{phase}</p>
      <video ref={video} autoPlay muted playsInline width={368} height={560} />
      <button type="button" onClick={() => void media.setMicEnabled(!media.micEnabled)}>
        {media.micEnabled ? 'Mic off' : 'Mic on'}
      </button>
      <StopSpeakingButton onError={(e) => void probe.errors.push(`interrupt: ${String(e)}`)} />
      <ol data-testid="transcript">
        {lines.map((l) => (
          <li key={l.id} data-role={l.role}>
            {l.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** RMS of `track` every 10 ms (an AnalyserNode on a MediaStreamSource); returns a stop function. */
function analyse(track: MediaStreamTrack): () => void {
  const ctx = new AudioContext();
  const node = ctx.createAnalyser();
  node.fftSize = 512;
  ctx.createMediaStreamSource(new MediaStream([track])).connect(node);
  const buf = new Float32Array(node.fftSize);
  const timer = setInterval(() => {
    node.getFloatTimeDomainData(buf);
    let s = 0;
    for (const x of buf) s += x * x;
    probe.rms.push({ t: Date.now(), rms: Math.sqrt(s / buf.length) });
    if (probe.rms.length > 60_000) probe.rms.splice(0, 30_000);
  }, 10);
  return () => {
    clearInterval(timer);
    void ctx.close();
  };
}

/** Polls the avatar audio the browser receives (what the user hears). */
function sampleAudio() {
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
}

sampleMouth(probe.mouth);
sampleAudio();
createRoot(document.getElementById('root')!).render(
  <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', flow: { kind: 'attach', session }, transport: 'rtc-a' }}>
    <Call />
  </AvatarSessionProvider>,
);
