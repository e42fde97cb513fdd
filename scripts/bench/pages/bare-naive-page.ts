// The naive baseline page of the first-frame bench (informative): what a developer writes with livekit-client alone
// on a first try, following the quickstart. One button; its click asks the same proxy for a hosted room (POST
// {proxy}/rooms), makes a Room, joins it and attaches the avatar's tracks; livekit-client logs at its default (info)
// level. The fair baseline is bare-page.ts.
import { Room, RoomEvent, Track, type RemoteTrack } from 'livekit-client';
import { createRoom, endWith, join, mark, probe } from './bare-call';

const video = document.querySelector('video')!;
const button = document.getElementById('start') as HTMLButtonElement;

button.addEventListener('click', async () => {
  button.disabled = true;
  try {
    const s = await createRoom();
    const room = new Room();
    room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      mark(`${track.kind} track`);
      if (track.kind === Track.Kind.Video) track.attach(video);
      else document.body.append(track.attach());
    });
    endWith(s, () => room.disconnect());
    await join(room, s);
  } catch (e) {
    probe.errors.push(String(e));
  }
});
