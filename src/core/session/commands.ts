import { LiveAiError, invalidRequest } from '../errors';
import { check, loadOnce } from '../lazy';
import type { ProxyClient } from '../proxy-client';
import type { ClientSession } from '../schemas';
import type { Transport } from '../transports/types';
import type { AudioOutput } from './audio-output';
import type { ControlCommands } from './control-commands';
import type { AvatarSession, ImageChangeState, MediaState, SessionCommands, SessionState } from './types';

/**
 * What the engine lends its commands: read access to its state, its proxy client and the current transport.
 * Commands never write the store; the engine records what they did (image progress, media choices).
 */
export interface CommandContext {
  /** `name` of chat messages (read on each send). */
  userName: () => string | undefined;
  /** Session options `uploadImage` / `inlineImageMaxBytes` (see AvatarSessionOptions). */
  uploadImage?: ((image: Blob) => Promise<string>) | undefined;
  inlineImageMaxBytes?: number | undefined;
  proxy: ProxyClient;
  get: () => Readonly<SessionState>;
  /** The joined transport, or null. */
  transport: () => Transport | null;
}

/** The engine's own media state and output, for the media commands. */
export interface MediaDeps {
  get: () => Readonly<SessionState>;
  setMedia: (patch: Partial<MediaState>) => void;
  audio: AudioOutput;
  /** Devices chosen before the transport exists; applied when it joins. */
  pendingDevices: Map<'audioinput' | 'videoinput', string>;
  transport: () => Transport | null;
}

type Commands = SessionCommands;
type MediaCommands = Pick<AvatarSession, 'setMicEnabled' | 'setSpeakerMuted' | 'setVolume' | 'setDevice' | 'unblockAudio'>;

/**
 * The session's outgoing commands (control events, leave-meeting, chat and end messages). Each input is
 * validated before any network call. Chat and end are part of every call; the control commands (and the zod
 * schemas that check them) load on their first use.
 * @throws LiveAiError `invalid_request` (bad input, or no session yet), `payload_too_large` (inline image
 *   ≥ 921600 bytes), `transport_failed` (app messages while not connected), or the proxy's error.
 */
export function createCommands(ctx: CommandContext, client: () => ClientSession | null): Commands {
  const requireTransport = (): Transport => {
    const t = ctx.transport();
    if (!t || ctx.get().media.connection === 'disconnected') throw new LiveAiError('transport_failed', 'not connected to the room');
    return t;
  };
  const control = loadOnce(() => import('./control-commands').then((m) => m.createControlCommands(ctx, client)));
  const later =
    <K extends keyof ControlCommands>(name: K) =>
    async (...args: Parameters<ControlCommands[K]>): Promise<Awaited<ReturnType<ControlCommands[K]>>> => {
      const commands = await control();
      return (commands[name] as (...a: typeof args) => Promise<Awaited<ReturnType<ControlCommands[K]>>>)(...args);
    };
  return {
    async sendChat(text) {
      const chat = { event: 'chat-msg', message: text, name: ctx.userName() ?? 'user' };
      const msg = await check(
        chat,
        (g) => g.chatMessageGuard,
        (v) => v.ChatMessageSchema,
      );
      if (!msg.success) throw invalidRequest(msg.error);
      await requireTransport().sendAppMessage(msg.data);
    },
    async forceEnd() {
      await requireTransport().sendAppMessage({ event: 'force-end' });
    },
    control: later('control'),
    updateImage: later('updateImage'),
    updateAgentPrompt: later('updateAgentPrompt'),
    updateIdlePrompt: later('updateIdlePrompt'),
    action: later('action'),
    resetIdleTimeout: later('resetIdleTimeout'),
    leaveMeeting: later('leaveMeeting'),
  };
}

/**
 * Microphone, speaker and device commands. Before the transport joins they only record the choice (mic state,
 * devices), which `join` applies. `setVolume` clamps to 0–1; non-finite values keep the current volume.
 */
export function createMediaCommands(ctx: MediaDeps): MediaCommands {
  const { get, setMedia, audio } = ctx;
  const connected = () => {
    const t = ctx.transport();
    return t && get().media.connection !== 'disconnected' ? t : null;
  };
  return {
    async setMicEnabled(enabled) {
      const t = connected();
      setMedia(t ? { micPending: true } : { micEnabled: enabled });
      await t?.setMicEnabled(enabled).finally(() => setMedia({ micPending: false }));
    },
    setSpeakerMuted(muted) {
      audio.setMuted(muted);
      setMedia({ speakerMuted: muted });
    },
    setVolume(volume) {
      const v = Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : get().media.volume;
      audio.setVolume(v);
      setMedia({ volume: v });
    },
    async setDevice(kind, deviceId) {
      if (kind === 'audiooutput') {
        await audio.setSinkId(deviceId);
        await ctx
          .transport()
          ?.setDevice(kind, deviceId)
          .catch(() => {});
        return;
      }
      ctx.pendingDevices.set(kind, deviceId);
      const t = connected();
      if (t) await t.setDevice(kind, deviceId);
    },
    unblockAudio: () => audio.unblock(),
  };
}

/**
 * The engine's record of an image change around `updateImage`: `sending` at once, `requested` once the proxy took
 * it (unless an `image_change_*` event came first), `error` with the detail when it failed.
 */
export function withImageProgress(
  updateImage: AvatarSession['updateImage'],
  get: () => Readonly<SessionState>,
  setImage: (image: ImageChangeState) => void,
): AvatarSession['updateImage'] {
  return async (input) => {
    setImage({ status: 'sending' });
    try {
      await updateImage(input);
      if (get().image.status === 'sending') setImage({ status: 'requested' });
    } catch (e) {
      const error = e instanceof LiveAiError ? e : new LiveAiError('upstream_error', String((e as Error)?.message ?? e), { cause: e });
      setImage({ status: 'error', error: error.detail });
      throw error;
    }
  };
}
