// A LiveKit Agents voice agent with the published LemonSlice avatar plugin, unmodified, pointed at the local
// avatar service (liveai-emulator started with --provider-labels rtc-a=livekit). The speech comes from a local
// stand-in TTS (speech-tts.mjs). It joins the room directly (no worker / dispatch), as in the plugin's docs
// for a session outside a job.
//
// Environment: LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET, LEMONSLICE_API_URL (the local service's
// …/liveai/sessions), LEMONSLICE_API_KEY, ROOM (room name), AGENT_ID (default agent-demo), AGENT_IDENTITY
// (default agent), GREETING (optional: said once the avatar is ready).
//
// Control: JSON lines on stdin — {"cmd":"say","text":"…"} | {"cmd":"interrupt"} | {"cmd":"quit"}.
// RPC: `liveai.interrupt` (a visitor's "Stop talking") interrupts the reply, as the stdin command does.
// Reports: lines `@@agent {json}` on stdout — session (the avatar session was created: session_id), ready (its avatar joined), visitor (the visitor the session listens and speaks to), tts_first_frame,
// interrupting, playback_started, playback_finished, said, preconnect_buffer (a visitor's pre-connect audio: its bytes), user_audio (the user's microphone level, once per second while heard), user_mic (muted / live), error.
import { createInterface } from 'node:readline';
import { initializeLogger, voice } from '@livekit/agents';
import { AvatarSession } from '@livekit/agents-plugin-lemonslice';
import { AudioStream, ParticipantKind, Room, RoomEvent, TrackKind } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { SpeechTTS } from './speech-tts.mjs';

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === '') throw new Error(`${name} is required`);
  return v;
};
const report = (event, data = {}) => process.stdout.write(`@@agent ${JSON.stringify({ event, t: Date.now(), ...data })}\n`);

initializeLogger({ pretty: false, level: process.env.AGENT_LOG_LEVEL ?? 'warn' });

const url = env('LIVEKIT_URL');
const apiKey = env('LIVEKIT_API_KEY');
const apiSecret = env('LIVEKIT_API_SECRET');
const roomName = env('ROOM');
const identity = env('AGENT_IDENTITY', 'agent');

const token = new AccessToken(apiKey, apiSecret, { identity, name: 'Agent', ttl: '1h' });
token.kind = 'agent';
// canUpdateOwnMetadata: the agent publishes its state (`lk.agent.state`) as a participant attribute, as a worker's
// dispatch token allows.
token.addGrant({ roomJoin: true, room: roomName, canPublish: true, canSubscribe: true, canPublishData: true, canUpdateOwnMetadata: true });
const room = new Room();
await room.connect(url, await token.toJwt(), { autoSubscribe: true, dynacast: false });

// the user's microphone reaches the agent: report its level once a second
room.on(RoomEvent.TrackSubscribed, (track, _pub, participant) => {
  if (track.kind !== TrackKind.KIND_AUDIO || participant.attributes['lk.publish_on_behalf']) return;
  void (async () => {
    const reader = new AudioStream(track, { sampleRate: 16000, numChannels: 1 }).getReader();
    let sum = 0;
    let n = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const x of value.data) sum += x * x;
      n += value.data.length;
      if (n >= 16000) {
        report('user_audio', { from: participant.identity, rms: Math.round(Math.sqrt(sum / n)) });
        sum = 0;
        n = 0;
      }
    }
  })().catch(() => {});
});

// What a visitor said while joining (livekit-client's pre-connect audio buffer, sent once the agent listens): report
// its size. A production agent would feed it to its speech recognition before the live microphone.
room.registerByteStreamHandler('lk.agent.pre-connect-audio-buffer', (reader, participant) => {
  void reader.readAll().then(
    (chunks) =>
      report('preconnect_buffer', {
        from: participant.identity,
        bytes: chunks.reduce((n, c) => n + c.byteLength, 0),
        mimeType: reader.info.mimeType,
        trackId: reader.info.attributes?.trackId,
      }),
    (e) => report('error', { what: 'preconnect_buffer', message: String(e?.message ?? e) }),
  );
});

// …and whether the user's microphone is muted (Mic off) or live again
for (const [event, muted] of [
  [RoomEvent.TrackMuted, true],
  [RoomEvent.TrackUnmuted, false],
]) {
  room.on(event, (pub, participant) => {
    if (pub.kind === TrackKind.KIND_AUDIO && participant.identity !== identity) report('user_mic', { from: participant.identity, muted });
  });
}

const session = new voice.AgentSession({ tts: new SpeechTTS((text) => report('tts_first_frame', { text })) });
const avatar = new AvatarSession({
  agentId: process.env.AGENT_ID ?? 'agent-demo',
  agentIdlePrompt: 'calm, attentive',
  idleTimeout: 600,
  // apiUrl falls back to LEMONSLICE_API_URL, apiKey to LEMONSLICE_API_KEY (the plugin's own variables)
});
const sessionId = await avatar.start(session, room, { livekitUrl: url, livekitApiKey: apiKey, livekitApiSecret: apiSecret });
// The avatar session exists (a visitor can attach to it); its avatar joins once the service has started it.
report('session', { session_id: sessionId });
const output = session.output.audio;
output.on('playbackStarted', () => report('playback_started'));
output.on('playbackFinished', (ev) => report('playback_finished', { position: ev.playbackPosition, interrupted: ev.interrupted }));

await session.start({ agent: new voice.Agent({ instructions: 'You are a friendly avatar.' }), room });
await avatar.waitForJoin({ timeout: 30_000 });
report('ready', { session_id: sessionId, avatar: avatar.avatarIdentity, room: roomName, identity });

// "Stop talking" from a visitor's page (liveai-kit's session.interrupt()): interrupt the reply; the avatar plugin then
// clears the avatar's audio buffer (lk.clear_buffer) and the avatar falls silent.
room.localParticipant.registerRpcMethod('liveai.interrupt', async (data) => {
  report('interrupting', { from: data.callerIdentity });
  await session.interrupt();
  return 'ok';
});

// The visitor the session is linked to. LiveKit Agents publishes the agent's transcription (`lk.transcription`) only
// for a linked participant: the session links the first visitor (a standard, SIP or connector participant that is not
// the avatar) once it has handled that visitor's join, and text it says before that is spoken but never transcribed
// (with @livekit/agents 1.9 its transcription output has no participant until then). On a busy machine that link comes
// seconds after the visitor's page is in the room, so a reply started as soon as the page shows the avatar lost its
// first words in the visitor's transcript. The agent therefore speaks once a visitor is linked, as an agent answering a
// visitor does. The session links in the same turn of the event loop as the join (its own listener, registered by
// session.start() before this one, resolves it; the link follows in microtasks): `setImmediate` runs after that.
const visitorKinds = [ParticipantKind.STANDARD, ParticipantKind.SIP, ParticipantKind.CONNECTOR];
const isVisitor = (p) => !p.attributes?.['lk.publish_on_behalf'] && (p.info?.kind === undefined || visitorKinds.includes(p.info.kind));
const visitor = new Promise((resolve) => {
  let done = false;
  const linked = (p) => {
    if (done) return;
    done = true;
    room.off(RoomEvent.ParticipantConnected, onJoin);
    report('visitor', { identity: p.identity });
    resolve(p.identity);
  };
  const onJoin = (p) => isVisitor(p) && setImmediate(() => linked(p));
  room.on(RoomEvent.ParticipantConnected, onJoin);
  const present = [...room.remoteParticipants.values()].find(isVisitor);
  if (present) setImmediate(() => linked(present));
});

const say = async (text) => {
  await visitor;
  const handle = session.say(text);
  handle.waitForPlayout().then(
    () => report('said', { text, interrupted: handle.interrupted }),
    (e) => report('error', { what: 'say', message: String(e?.message ?? e) }),
  );
};
if (process.env.GREETING) void say(process.env.GREETING);

const quit = async () => {
  await avatar.aclose().catch(() => {});
  await session.close().catch(() => {});
  await room.disconnect().catch(() => {});
  process.exit(0);
};
createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return report('error', { what: 'stdin', message: 'not JSON' });
  }
  if (msg.cmd === 'say' && typeof msg.text === 'string') void say(msg.text);
  else if (msg.cmd === 'interrupt') {
    report('interrupting');
    session.interrupt();
  } else if (msg.cmd === 'quit') void quit();
});
process.once('SIGTERM', () => void quit());
process.once('SIGINT', () => void quit());
