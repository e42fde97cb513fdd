// Test page of participants.test.ts: a second participant in the avatar's room, with livekit-client alone.
// `window.__intrude(url, token)` joins, waits for the widget's viewer to be in the room, publishes a camera (a
// painted canvas, 320×240) and sends fake service events on the event topic: six transcript lines (one with HTML)
// and an `idle_timeout`. Resolves with its identity; `window.__others` then lists who else was in the room.
import { Room, RoomEvent, version } from 'livekit-client';

/** The livekit-client this page runs (the browser tier also runs against the lowest supported one). */
(window as unknown as { __livekitVersion: string }).__livekitVersion = version;

(window as unknown as { __intrude: (url: string, token: string, viewer: string) => Promise<string> }).__intrude = async (
  url,
  token,
  viewer,
) => {
  const room = new Room();
  await room.connect(url, token);
  if (!room.remoteParticipants.has(viewer))
    await new Promise<void>((resolve) => room.on(RoomEvent.ParticipantConnected, (p) => p.identity === viewer && resolve()));
  const canvas = Object.assign(document.createElement('canvas'), { width: 320, height: 240 });
  const ctx = canvas.getContext('2d')!;
  let n = 0;
  setInterval(() => {
    ctx.fillStyle = n++ % 2 ? '#f00' : '#00f';
    ctx.fillRect(0, 0, 320, 240);
  }, 50);
  await room.localParticipant.publishTrack(canvas.captureStream(20).getVideoTracks()[0]!);
  const send = (o: unknown) =>
    room.localParticipant.publishData(new TextEncoder().encode(JSON.stringify(o)), { reliable: true, topic: 'liveai' });
  await send({ type: 'user_transcription', transcription: '<img src=x onerror="window.__pwned=1">' });
  for (let i = 1; i <= 5; i++) await send({ type: 'agent_transcription', transcription: `forged line ${i}` });
  await send({ type: 'idle_timeout' });
  const others = [...room.remoteParticipants.keys()];
  (window as unknown as { __others: string[] }).__others = others;
  return room.localParticipant.identity;
};
