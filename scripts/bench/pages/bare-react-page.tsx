// The hand-written React page of the first-frame bench (informative): the fastest public-API page (bare-page.ts)
// written as a React app, as a competent engineer writes a call page in React. It shows what rendering the call's
// states through React costs on the main thread, with no library of ours or LiveKit's components: the floor of a
// React widget. Same techniques as bare-page.ts (logs at warn, the Room and its TrackSubscribed listener made at
// load, prepareConnection at load, the video attached on TrackSubscribed into the <video> React rendered), plus
// React state for what the page shows: a status line and the button.
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LogLevel, Room, RoomEvent, Track, setLogLevel, type RemoteTrack } from 'livekit-client';
import { createRoom, endWith, join, mark, params, probe } from './bare-call';

setLogLevel(LogLevel.warn);
const room = new Room();
const lk = params.get('lk');
if (lk) void room.prepareConnection(lk).catch(() => {});

type Status = 'idle' | 'connecting' | 'connected' | 'live' | 'failed';

function CallPage() {
  const [status, setStatus] = useState<Status>('idle');
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const onTrack = (track: RemoteTrack) => {
      mark(`${track.kind} track`);
      if (track.kind === Track.Kind.Video) {
        track.attach(video.current!);
        setStatus('live');
      } else document.body.append(track.attach());
    };
    room.on(RoomEvent.TrackSubscribed, onTrack);
    return () => void room.off(RoomEvent.TrackSubscribed, onTrack);
  }, []);

  const start = async () => {
    setStatus('connecting');
    try {
      const s = await createRoom();
      endWith(s, () => room.disconnect());
      await join(room, s);
      setStatus((now) => (now === 'live' ? now : 'connected'));
    } catch (e) {
      probe.errors.push(String(e));
      setStatus('failed');
    }
  };

  return (
    <main>
      <video ref={video} autoPlay playsInline muted width={368} height={560} />
      <p role="status">{status === 'idle' ? 'Ready' : status === 'live' ? 'Live' : status === 'failed' ? 'Failed' : 'Connecting…'}</p>
      <button type="button" disabled={status !== 'idle'} onClick={() => void start()}>
        Start call
      </button>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<CallPage />);
