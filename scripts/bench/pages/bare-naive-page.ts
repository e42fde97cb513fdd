// The naive baseline page of the first-frame bench (informative): what a developer writes with livekit-client alone
// on a first try, following the quickstart. One button; its click asks the same proxy for a hosted room (POST
// {proxy}/rooms), makes a Room, joins it and attaches the avatar's tracks; livekit-client logs at its default (info)
// level. The fair baseline is bare-page.ts.
import { Room, RoomEvent, Track, type RemoteTrack } from 'livekit-client';
import { probe as sharedProbe } from './probe.js';

interface Probe {
  errors: string[];
  end: (() => Promise<void>) | null;
}
const probe = sharedProbe as Probe;
const proxy = new URLSearchParams(location.search).get('proxy') ?? '/api/avatar';
const video = document.querySelector('video')!;
const button = document.getElementById('start') as HTMLButtonElement;
/** `?marks=1` (e2e.ts --marks): the same timeline names as the widget page, for comparison. */
const MARKS = new URLSearchParams(location.search).get('marks') === '1';
const mark = (name: string) => void (MARKS && ((sharedProbe as { marks: Record<string, number> }).marks[name] ??= performance.now()));

button.addEventListener('click', async () => {
  button.disabled = true;
  try {
    const res = await fetch(`${proxy}/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo' }),
    });
    mark(`POST ${proxy}/rooms answered`);
    if (res.status !== 201) throw new Error(`POST /rooms: ${res.status}`);
    const s = (await res.json()) as { session_id: string; client_token: string; room_url: string; token: string };
    const room = new Room();
    room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      mark(`${track.kind} track`);
      if (track.kind === Track.Kind.Video) track.attach(video);
      else document.body.append(track.attach());
    });
    probe.end = async () => {
      await fetch(`${proxy}/sessions/${s.session_id}/end`, { method: 'POST', headers: { authorization: `Bearer ${s.client_token}` } });
      await room.disconnect();
    };
    mark('room connecting');
    await room.connect(s.room_url, s.token);
    mark('room connected');
  } catch (e) {
    probe.errors.push(String(e));
  }
});
