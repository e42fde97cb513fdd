import { LiveAiError } from '../errors';
import { describeError, liveNotYetKnown, reduceEvent } from '../store/reducers';
import type { TranscriptMerger } from './transcript-merge';
import type { AvatarEvent } from '../schemas';
import type { Transport, TransportEventMap } from '../transports/types';
import type { AudioOutput } from './audio-output';
import type { EndReason, MediaState, SessionState } from './types';

/** What the engine gives a joined transport's listeners. */
export interface WiringDeps {
  get: () => Readonly<SessionState>;
  setMedia: (patch: Partial<MediaState>) => void;
  /** Writes a patch and re-derives the phase. */
  commit: (patch: Partial<SessionState>) => void;
  audio: AudioOutput;
  report: (error: LiveAiError) => void;
  onEvent: (event: AvatarEvent) => void;
  onTranscription: (segment: TransportEventMap['transcription']) => void;
  /** The room was lost for good (`transport_failed`). */
  onLost: (error: LiveAiError) => void;
}

/**
 * Subscribes the engine to a joined transport: service events, tracks (the audio plays through the engine's
 * one audio output), connection changes (which re-derive the phase), the microphone, and the loss of the room.
 * @returns the unsubscribe functions.
 */
export function wireTransport(t: Transport, d: WiringDeps): (() => void)[] {
  let previous = d.get().media.connection;
  return [
    t.on('event', d.onEvent),
    t.on('invalidMessage', ({ error }) => d.report(error)),
    t.on('track', ({ kind, track }) => {
      if (kind === 'audio') {
        d.audio.attach(track);
        return d.setMedia({ audioTrack: track });
      }
      // The avatar publishes its video only once it is live: its video track tells that as `bot_ready` does (which a
      // page that joins after the avatar never receives), without waiting for the next status poll.
      const live = track && liveNotYetKnown(d.get().sessionStatus) && { sessionStatus: 'ACTIVE' as const };
      // The video arriving makes the call active, even a little before the room says it is connected. A track that
      // comes while the room is joining is muted until its first packets arrive: the phase is derived again then.
      d.commit({ media: { ...d.get().media, videoTrack: track }, ...live });
      if (track?.muted) track.addEventListener('unmute', () => d.get().media.videoTrack === track && d.commit({}), { once: true });
    }),
    t.on('connection', (connection) => {
      // Re-bind audio after a reconnect: users report dead audio otherwise.
      if (previous === 'reconnecting' && connection === 'connected') d.audio.reattach();
      previous = connection;
      d.commit({ media: { ...d.get().media, connection } });
    }),
    t.on('mic', ({ enabled }) => d.setMedia({ micEnabled: enabled })),
    t.on('transcription', d.onTranscription),
    t.on('disconnected', ({ error }) => void (error && d.onLost(error))),
  ];
}

/** What the engine does with service events. */
export interface EventDeps {
  /** Applies the event to the store. */
  apply: (event: AvatarEvent) => void;
  /** Hands the event to `session.on` subscribers (after the store changed). */
  emit: (event: AvatarEvent) => void;
  commit: (patch?: Partial<SessionState>) => void;
  report: (error: LiveAiError) => void;
  /** Ends the session (with `error`: fails it). */
  end: (reason: EndReason, error?: LiveAiError) => void;
  running: () => boolean;
}

/**
 * Handles one service event: store first, then subscribers; `bot_ready` re-derives the phase, `idle_timeout` ends
 * the session, a fatal `daily_error` fails it, `video_generation_error` and non-fatal room errors are reported.
 */
export const createEventHandler =
  (d: EventDeps) =>
  (event: AvatarEvent): void => {
    d.apply(event);
    d.emit(event);
    if (event.type === 'bot_ready') d.commit();
    else if (event.type === 'idle_timeout') d.end('idle_timeout');
    else if (event.type === 'video_generation_error')
      d.report(new LiveAiError('upstream_error', 'the avatar service failed to generate video'));
    else if (event.type === 'daily_error') {
      const error = new LiveAiError('transport_failed', `room provider error: ${describeError(event.error)}`);
      if (event.fatal && d.running()) d.end('failed', error);
      else d.report(error);
    }
  };

/**
 * The store patch of one service event. Transcript lines go through `transcript`, which merges them with the
 * room's own transcription (an utterance both sources report is one line).
 */
export function eventPatch(
  s: SessionState,
  event: AvatarEvent,
  o: { transcript: TranscriptMerger | null; nextId: number; maxTranscriptLines: number },
): Partial<SessionState> {
  const now = Date.now();
  const patch = reduceEvent(s, event, { now, nextId: o.nextId, maxTranscriptLines: o.maxTranscriptLines });
  if (o.transcript && (event.type === 'user_transcription' || event.type === 'agent_transcription')) {
    const lines = o.transcript.service(s.transcript, event.type === 'user_transcription' ? 'user' : 'agent', event.transcription, now);
    if (lines) patch.transcript = lines;
    else delete patch.transcript;
  }
  return patch;
}
