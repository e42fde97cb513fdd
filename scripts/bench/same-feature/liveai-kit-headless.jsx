// Same-feature page, liveai-kit's headless hooks only: the avatar's video and audio, the transcript, chat and an End
// button, through the proxy, with the same markup as the components-react page (a bare <video>, a list, a form).
// Hooks against hooks: useSession, useMedia (the session plays the audio), useTranscript, useControl. Plain JSX
// (bundled by esbuild, not type-checked) that imports the built package.
import '../../../dist/livekit.js';
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AvatarSessionProvider, useControl, useMedia, useSession, useTranscript } from '../../../dist/react.js';

function Stage() {
  const { videoTrack } = useMedia();
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current && videoTrack) ref.current.srcObject = new MediaStream([videoTrack]);
  }, [videoTrack]);
  return videoTrack ? <video ref={ref} autoPlay playsInline muted /> : <p>Connecting…</p>;
}

function Transcript() {
  const lines = useTranscript();
  return (
    <ol aria-label="Transcript">
      {lines.map((l) => (
        <li key={l.id}>{l.text}</li>
      ))}
    </ol>
  );
}

function Chat() {
  const { sendChat } = useControl();
  const [text, setText] = useState('');
  const send = (e) => {
    e.preventDefault();
    void sendChat(text);
    setText('');
  };
  return (
    <form onSubmit={send}>
      <input value={text} onChange={(e) => setText(e.target.value)} />
      <button>Send</button>
    </form>
  );
}

function Call() {
  const { phase, start, endSession } = useSession();
  if (phase === 'idle' || phase === 'ended') return <button onClick={() => void start()}>Start call</button>;
  return (
    <>
      <Stage />
      <Transcript />
      <Chat />
      <button onClick={() => void endSession()}>End</button>
    </>
  );
}

const options = { proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' } };
createRoot(document.getElementById('root')).render(
  <AvatarSessionProvider options={options}>
    <Call />
  </AvatarSessionProvider>,
);
