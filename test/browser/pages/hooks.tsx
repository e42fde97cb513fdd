// Test page (issue 25): an app's own UI on liveai-kit's hooks only (no components): useSession, useMedia,
// useTranscript, useControl and useAvatarEvents around a hosted room, with plain buttons, a <video> and a list.
// What the page saw goes into window.__hooks for the test.
import '../../../src/core/transports/livekit';
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AvatarSessionProvider, useAvatarEvents, useControl, useMedia, useSession, useTranscript } from '../../../src/react';

export interface HooksProbe {
  phases: string[];
  events: string[];
  errors: string[];
}
const probe: HooksProbe = { phases: [], events: [], errors: [] };
(window as unknown as { __hooks: HooksProbe }).__hooks = probe;

function Call() {
  const { phase, error, start, endSession } = useSession();
  const media = useMedia();
  const lines = useTranscript();
  const { sendChat } = useControl();
  const [text, setText] = useState('');
  const video = useRef<HTMLVideoElement>(null);
  useAvatarEvents('*', (e) => void probe.events.push(e.type));
  useEffect(() => void probe.phases.push(phase), [phase]);
  useEffect(() => void (error && probe.errors.push(`${error.code}: ${error.detail}`)), [error]);
  useEffect(() => {
    if (video.current) video.current.srcObject = media.videoTrack ? new MediaStream([media.videoTrack]) : null;
  }, [media.videoTrack]);
  return (
    <section>
      <p>
        Phase: <output aria-label="Phase">{phase}</output>
      </p>
      <video ref={video} autoPlay muted playsInline width={184} height={280} />
      <p>
        <button type="button" onClick={() => void start()} disabled={phase !== 'idle'}>
          Call
        </button>{' '}
        <button type="button" onClick={() => void endSession()}>
          Hang up
        </button>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void sendChat(text);
          setText('');
        }}
      >
        <input aria-label="Say" value={text} onChange={(e) => setText(e.target.value)} />
      </form>
      <ol>
        {lines.map((l) => (
          <li key={l.id} data-role={l.role}>
            {l.role}: {l.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' } }}>
    <Call />
  </AvatarSessionProvider>,
);
