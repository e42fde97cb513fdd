// Test page (issue 5): a websocket-rtc-a session created through the proxy, joined by the widget (rtc-a engine);
// the page streams speech-like PCM to `websocket_address` with streamPcmToWebSocket and records, per decoded
// video frame, how the mouth looks, and the level of the avatar audio it receives. Read through window.__ws.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import { streamPcmToWebSocket } from '../../../src/core/audio/stream';
import type { AvatarSession } from '../../../src/core/session/types';
import { sampleMouth, type MouthSample } from './frames';
import '../../../src/components/styles/index.css';

interface WsProbe {
  phases: string[];
  events: string[];
  errors: { code: string; detail: string }[];
  session: AvatarSession | null;
  /** One entry per presented video frame (see frames.ts). */
  mouth: MouthSample[];
  /** Received avatar audio every 50 ms: inbound-rtp `audioLevel` (0–1), and `rms` = √(ΔtotalAudioEnergy / ΔtotalSamplesDuration) since the last poll. */
  audio: { t: number; level: number; rms: number }[];
  /** Starts streaming `seconds` of speech-like audio (an AudioBuffer) to the session's websocket_address; sets `spoken` when done. */
  speak: (seconds: number) => void;
  /** Set when the stream is done: times in performance.now() ms, frames sent, the address used; or the error. */
  spoken: { start: number; end: number; framesSent: number; address: string } | { error: string } | null;
}
const probe: WsProbe = { phases: [], events: [], errors: [], session: null, mouth: [], audio: [], speak, spoken: null };
(window as unknown as { __ws: WsProbe }).__ws = probe;

/** Speech-like 16 kHz clip: a voiced source (f0 ≈ 130 Hz, formant-weighted harmonics) in 4 Hz syllables with word gaps. */
function speechLike(seconds: number): AudioBuffer {
  const rate = 16_000;
  const buf = new AudioBuffer({ length: Math.round(seconds * rate), sampleRate: rate, numberOfChannels: 1 });
  const x = buf.getChannelData(0);
  const formant = (f: number) => Math.exp(-(((f - 700) / 250) ** 2)) + 0.6 * Math.exp(-(((f - 1200) / 300) ** 2)) + 0.15;
  let phase = 0;
  for (let i = 0; i < x.length; i++) {
    const t = i / rate;
    const f0 = 130 + 15 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += (2 * Math.PI * f0) / rate;
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 4 * t)) ** 0.7;
    const word = t % 1.25 < 1.05 ? 1 : 0;
    let v = 0;
    for (let k = 1; k <= 20; k++) v += formant(k * f0) * Math.sin(k * phase + k * 0.3);
    x[i] = 0.07 * v * syllable * word;
  }
  return buf;
}

function speak(seconds: number) {
  const address = probe.session?.getClientSession()?.websocket_address;
  if (!address) return void (probe.spoken = { error: 'no websocket_address yet' });
  const source = speechLike(seconds);
  const start = performance.now();
  const stream = streamPcmToWebSocket({ address, source });
  stream.done.then(
    () => (probe.spoken = { start, end: performance.now(), framesSent: stream.framesSent, address }),
    (e: Error) => (probe.spoken = { error: String(e) }),
  );
}

/** Polls the avatar audio the browser receives. */
function sampleAudio() {
  let last: { energy: number; duration: number } | null = null;
  setInterval(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs;
    let level = 0;
    let energy = 0;
    let duration = 0;
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s: Record<string, unknown>) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'audio') return;
        level = Math.max(level, Number(s.audioLevel ?? 0));
        energy += Number(s.totalAudioEnergy ?? 0);
        duration += Number(s.totalSamplesDuration ?? 0);
      });
    }
    const rms = last && duration > last.duration ? Math.sqrt((energy - last.energy) / (duration - last.duration)) : 0;
    last = { energy, duration };
    probe.audio.push({ t: performance.now(), level, rms });
  }, 50);
}

sampleMouth(probe.mouth);
sampleAudio();
createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    options={{ flow: { kind: 'session', request: { agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' } } }}
    variant="inline"
    title="Voice avatar"
    onSession={(s) => {
      probe.session = s;
      s.on('*', (e) => probe.events.push(e.type));
    }}
    onPhaseChange={(p) => probe.phases.push(p)}
    onError={(e) => probe.errors.push({ code: e.code, detail: e.detail ?? '' })}
  />,
);
