// The fair baseline page of the first-frame bench: the fastest page a competent engineer writes with livekit-client's
// public API alone. One button; its click asks the same proxy for a hosted room (POST {proxy}/rooms), joins it and
// attaches the avatar's tracks. What makes it fast, all public API and all things its documentation recommends:
//   - quiet logs (`setLogLevel('warn')`, as liveai-kit sets them): info-level logging costs main-thread time;
//   - the Room and its TrackSubscribed listener made at load, so the click only fetches and connects;
//   - `room.prepareConnection(url)` at load when the page knows its LiveKit URL (`?lk=`; a deployment knows it), which
//     warms the connection to the LiveKit server before the click;
//   - the video attached on TrackSubscribed into a <video> already in the page.
// livekit-client is imported statically, so it loads with the page, as such a page ships.
// `?jbt=MS` (e2e.ts, the lossy link): the avatar's receivers get `RTCRtpReceiver.jitterBufferTarget = MS` (the
// standard, public WebRTC property) when subscribed: a prototype of a larger jitter buffer against freezes.
import { LogLevel, Room, RoomEvent, Track, setLogLevel, type RemoteTrack } from 'livekit-client';
import { createRoom, endWith, join, mark, params, probe } from './bare-call';

setLogLevel(LogLevel.warn);
const jitterBufferTarget = params.get('jbt') === null ? null : Number(params.get('jbt'));
const video = document.querySelector('video')!;
const button = document.getElementById('start') as HTMLButtonElement;

const room = new Room();
room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
  mark(`${track.kind} track`);
  if (jitterBufferTarget !== null && track.receiver && 'jitterBufferTarget' in track.receiver)
    track.receiver.jitterBufferTarget = jitterBufferTarget;
  if (track.kind === Track.Kind.Video) track.attach(video);
  else document.body.append(track.attach());
});
const lk = params.get('lk');
if (lk) void room.prepareConnection(lk).catch(() => {});

button.addEventListener('click', async () => {
  button.disabled = true;
  try {
    const s = await createRoom();
    endWith(s, () => room.disconnect());
    await join(room, s);
  } catch (e) {
    probe.errors.push(String(e));
  }
});
