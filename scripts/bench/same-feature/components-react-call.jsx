// The call part of the code-split components-react page (components-react-lazy.jsx): the same components and hooks
// as components-react.jsx imports statically, loaded with React.lazy when Start is clicked.
import { useState } from 'react';
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

export default function Call({ joined, onEnded }) {
  const end = async () => {
    await fetch(`/api/avatar/sessions/${joined.session_id}/end`, {
      method: 'POST',
      headers: { authorization: `Bearer ${joined.client_token}` },
    });
    onEnded();
  };
  return (
    <LiveKitRoom serverUrl={joined.room_url} token={joined.token} connect audio={false} video={false} onDisconnected={onEnded}>
      <Stage />
      <RoomAudioRenderer />
      <Transcript />
      <Chat />
      <button onClick={end}>End</button>
    </LiveKitRoom>
  );
}
