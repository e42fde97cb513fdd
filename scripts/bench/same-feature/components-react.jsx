// Same-feature page, @livekit/components-react: the avatar's video and audio, the transcript (the service's events
// on the `liveai` data topic), chat (the `chat-msg` app message on the same topic) and an End button, through the
// same proxy.
// The smallest app that does what the widget does, written the way the library's docs show. Plain JSX (bundled by
// esbuild, not type-checked), like its liveai-kit twin that imports the built package.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LiveKitRoom, RoomAudioRenderer, VideoTrack, useDataChannel, useTracks, useRoomContext } from '@livekit/components-react';
import { Track } from 'livekit-client';

const enc = new TextEncoder();
const dec = new TextDecoder();

function Stage() {
  const [video] = useTracks([Track.Source.Camera]);
  return video ? <VideoTrack trackRef={video} /> : <p>Connecting…</p>;
}

function Transcript() {
  const [lines, setLines] = useState([]);
  useDataChannel('liveai', (msg) => {
    const e = JSON.parse(dec.decode(msg.payload));
    if (e.type === 'user_transcription' || e.type === 'agent_transcription') setLines((l) => [...l, e.transcription]);
  });
  return (
    <ol aria-label="Transcript">
      {lines.map((l, i) => (
        <li key={i}>{l}</li>
      ))}
    </ol>
  );
}

function Chat() {
  const room = useRoomContext();
  const [text, setText] = useState('');
  const send = (e) => {
    e.preventDefault();
    const message = JSON.stringify({ event: 'chat-msg', message: text, name: 'user' });
    void room.localParticipant.publishData(enc.encode(message), { reliable: true, topic: 'liveai' });
    setText('');
  };
  return (
    <form onSubmit={send}>
      <input value={text} onChange={(e) => setText(e.target.value)} />
      <button>Send</button>
    </form>
  );
}

function App() {
  const [joined, setJoined] = useState(null);
  const start = async () => {
    const res = await fetch('/api/avatar/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo' }),
    });
    setJoined(await res.json());
  };
  const end = async () => {
    await fetch(`/api/avatar/sessions/${joined.session_id}/end`, {
      method: 'POST',
      headers: { authorization: `Bearer ${joined.client_token}` },
    });
    setJoined(null);
  };
  if (!joined) return <button onClick={start}>Start call</button>;
  return (
    <LiveKitRoom
      serverUrl={joined.room_url}
      token={joined.token}
      connect
      audio={false}
      video={false}
      onDisconnected={() => setJoined(null)}
    >
      <Stage />
      <RoomAudioRenderer />
      <Transcript />
      <Chat />
      <button onClick={end}>End</button>
    </LiveKitRoom>
  );
}

createRoot(document.getElementById('root')).render(<App />);
