// A front end on liveai-kit's hooks that attaches to a LiveKit agent's room: it shows the avatar (which publishes
// for the agent), plays its voice, merges the agent's transcriptions with the service's events, and sends the
// user's microphone to the agent.
import 'liveai-kit/livekit'; // registers the rtc-a (LiveKit) transport
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { ClientSession } from 'liveai-kit';
import { AvatarSessionProvider, useMedia, useSession, useTranscript } from 'liveai-kit/react';

type Call = { room: string; session: ClientSession };

function App() {
  const [call, setCall] = useState<Call | null>(null);
  const [error, setError] = useState('');
  const start = async () => {
    setError('');
    const res = await fetch('/api/call', { method: 'POST' });
    if (!res.ok) return setError(((await res.json()) as { detail: string }).detail);
    setCall((await res.json()) as Call);
  };
  if (!call) {
    return (
      <main style={{ padding: 24 }}>
        <h1>LiveKit agent with an avatar</h1>
        <button onClick={() => void start()}>Start call</button>
        {error && <p role="alert">{error}</p>}
      </main>
    );
  }
  return (
    <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', flow: { kind: 'attach', session: call.session }, transport: 'rtc-a' }}>
      <CallView room={call.room} onEnd={() => setCall(null)} />
    </AvatarSessionProvider>
  );
}

function CallView({ room, onEnd }: { room: string; onEnd: () => void }) {
  const { phase, error, start, end } = useSession();
  const media = useMedia();
  const lines = useTranscript();
  const video = useRef<HTMLVideoElement>(null);
  const [text, setText] = useState('');
  useEffect(() => void start(), [start]);
  useEffect(() => {
    if (video.current) video.current.srcObject = media.videoTrack ? new MediaStream([media.videoTrack]) : null;
  }, [media.videoTrack]);
  const agent = (cmd: string, body?: object) =>
    fetch(`/api/call/${room}/${cmd}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });

  return (
    <main style={{ display: 'flex', gap: 24, padding: 24, alignItems: 'flex-start' }}>
      <section>
        {/* muted: the session plays the avatar's audio itself */}
        <video ref={video} autoPlay muted playsInline width={368} height={560} style={{ background: '#111', borderRadius: 12 }} />
        <p>
          {phase}
          {error && ` — ${error.detail}`}
          {media.audioBlocked && <button onClick={() => void media.unblockAudio()}>Enable sound</button>}
        </p>
        <button onClick={() => void media.setMicEnabled(!media.micEnabled)}>{media.micEnabled ? 'Mic off' : 'Mic on'}</button>{' '}
        <button onClick={() => void agent('interrupt')}>Interrupt</button>{' '}
        <button
          onClick={() =>
            void agent('end')
              .then(() => end())
              .then(onEnd)
          }
        >
          End
        </button>
      </section>
      <section style={{ width: 360 }}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) void agent('say', { text });
            setText('');
          }}
        >
          <input value={text} onChange={(e) => setText(e.target.value)} placeholder="Make the agent say…" style={{ width: '75%' }} />
          <button type="submit">Say</button>
        </form>
        <ol>
          {lines.map((l) => (
            <li key={l.id}>
              <b>{l.role === 'agent' ? 'Agent' : 'You'}:</b> {l.text}
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
