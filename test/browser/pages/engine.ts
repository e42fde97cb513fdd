// Test page of early-video.test.ts: what the rtc-a adapter relies on in livekit-client's engine, seen with
// livekit-client alone. `window.__join()` creates a hosted room through the proxy at /api/avatar, joins it and
// records, in order, the engine's `mediaTrackAdded` (with whether its stream id names a participant the room
// already knows), livekit-client's `Connected` and its `TrackSubscribed`.
import { Room, RoomEvent } from 'livekit-client';

export type EngineStep =
  { step: 'mediaTrackAdded'; kind: string; knownParticipant: boolean } | { step: 'connected' | 'trackSubscribed'; kind?: string };

(window as unknown as { __join: () => Promise<EngineStep[]> }).__join = async () => {
  const res = await fetch('/api/avatar/rooms', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 'agent-demo' }),
  });
  const s = (await res.json()) as { session_id: string; client_token: string; room_url: string; token: string };
  const steps: EngineStep[] = [];
  const room = new Room();
  const engine = (room as unknown as { engine?: { on(e: string, f: (t: MediaStreamTrack, s?: MediaStream) => void): void } }).engine;
  engine?.on('mediaTrackAdded', (track, stream) => {
    const sid = stream?.id.split('|')[0];
    const knownParticipant = [...room.remoteParticipants.values()].some((p) => p.sid === sid);
    steps.push({ step: 'mediaTrackAdded', kind: track.kind, knownParticipant });
  });
  room.on(RoomEvent.Connected, () => steps.push({ step: 'connected' }));
  // The avatar publishes video and audio: both subscribed.
  const subscribed = new Promise<void>((resolve) => {
    room.on(RoomEvent.TrackSubscribed, (track) => {
      steps.push({ step: 'trackSubscribed', kind: track.kind });
      if (steps.filter((x) => x.step === 'trackSubscribed').length === 2) resolve();
    });
  });
  await room.connect(s.room_url, s.token);
  await subscribed;
  await fetch(`/api/avatar/sessions/${s.session_id}/end`, { method: 'POST', headers: { authorization: `Bearer ${s.client_token}` } });
  await room.disconnect();
  return steps;
};
