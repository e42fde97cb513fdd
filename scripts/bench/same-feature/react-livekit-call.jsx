// The call part of the hand-written React + livekit-client page (react-livekit.jsx): one Room, the avatar's video
// into a <video>, its audio played, the transcript and chat over data messages on the `liveai` topic, End.
import { useEffect, useRef, useState } from 'react';
import { Room, RoomEvent, Track } from 'livekit-client';

const enc = new TextEncoder();
const dec = new TextDecoder();

export default function Call({ joined, onEnded }) {
  const video = useRef(null);
  const [room] = useState(() => new Room());
  const [lines, setLines] = useState([]);
  const [text, setText] = useState('');
  useEffect(() => {
    const audio = [];
    room
      .on(RoomEvent.TrackSubscribed, (track) => {
        if (track.kind === Track.Kind.Video) track.attach(video.current);
        else audio.push(document.body.appendChild(track.attach()));
      })
      .on(RoomEvent.DataReceived, (payload, _from, _kind, topic) => {
        if (topic !== 'liveai') return;
        const e = JSON.parse(dec.decode(payload));
        if (e.type === 'user_transcription' || e.type === 'agent_transcription') setLines((l) => [...l, e.transcription]);
      })
      .on(RoomEvent.Disconnected, onEnded);
    void room.connect(joined.room_url, joined.token);
    return () => {
      audio.forEach((a) => a.remove());
      void room.disconnect();
    };
  }, [room, joined, onEnded]);
  const send = (e) => {
    e.preventDefault();
    const message = JSON.stringify({ event: 'chat-msg', message: text, name: 'user' });
    void room.localParticipant.publishData(enc.encode(message), { reliable: true, topic: 'liveai' });
    setText('');
  };
  const end = async () => {
    await fetch(`/api/avatar/sessions/${joined.session_id}/end`, {
      method: 'POST',
      headers: { authorization: `Bearer ${joined.client_token}` },
    });
    await room.disconnect();
  };
  return (
    <>
      <video ref={video} autoPlay playsInline muted />
      <ol aria-label="Transcript">
        {lines.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ol>
      <form onSubmit={send}>
        <input value={text} onChange={(e) => setText(e.target.value)} />
        <button>Send</button>
      </form>
      <button onClick={() => void end()}>End</button>
    </>
  );
}
