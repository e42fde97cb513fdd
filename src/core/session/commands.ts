import { LiveAiError, invalidRequest } from '../errors';
import { prepareImage } from '../image/prepare';
import { loadValidation } from '../lazy';
import type { ProxyClient } from '../proxy-client';
import type { ClientSession, ControlEvent } from '../schemas';
import type { Transport } from '../transports/types';
import type { AudioOutput } from './audio-output';
import { imageSource } from './controls';
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
 * validated before any network call (the zod chunk is loaded on first use).
 * @throws LiveAiError `invalid_request` (bad input, or no session yet), `payload_too_large` (inline image
 *   ≥ 921600 bytes), `transport_failed` (app messages while not connected), or the proxy's error.
 */
export function createCommands(ctx: CommandContext, client: () => ClientSession | null): Commands {
  const { get, proxy } = ctx;
  const requireClient = async (): Promise<ClientSession> => {
    const c = client();
    if (!c) throw new LiveAiError('invalid_request', 'no session yet: call start() first', { status: 400 });
    return c;
  };
  const requireTransport = async (): Promise<Transport> => {
    const t = ctx.transport();
    if (!t || get().media.connection === 'disconnected') throw new LiveAiError('transport_failed', 'not connected to the room');
    return t;
  };
  const sendControl = async (event: unknown) => {
    const valid = (await loadValidation()).validateControlEvent(event);
    const c = await requireClient();
    return proxy.control(c.session_id, c.client_token, valid);
  };
  /** A picked image: prepared and sent inline, or, when it cannot fit, hosted by `uploadImage` and sent as a URL. */
  const blobEvent = async (blob: Blob) => {
    try {
      const maxBytes = ctx.inlineImageMaxBytes;
      return { event: 'update-image', image_base64: (await prepareImage(blob, maxBytes ? { maxBytes } : {})).base64 };
    } catch (e) {
      if (!(e instanceof LiveAiError && e.code === 'payload_too_large' && ctx.uploadImage)) throw e;
      const url = await ctx.uploadImage(blob).catch((cause: unknown) => {
        if (cause instanceof LiveAiError) throw cause;
        const why = String((cause as Error)?.message ?? cause);
        throw new LiveAiError('handler_error', `image too large to send inline, and your uploadImage failed: ${why}`, {
          cause,
        });
      });
      return { event: 'update-image', image_url: url };
    }
  };
  return {
    async sendChat(text) {
      const msg = (await loadValidation()).ChatMessageSchema.safeParse({
        event: 'chat-msg',
        message: text,
        name: ctx.userName() ?? 'user',
      });
      if (!msg.success) throw invalidRequest(msg.error);
      await (await requireTransport()).sendAppMessage(msg.data);
    },
    async forceEnd() {
      await (await requireTransport()).sendAppMessage({ event: 'force-end' });
    },
    control: (event: ControlEvent) => sendControl(event),
    async updateImage(input) {
      const source = imageSource(input);
      await requireClient();
      let event: unknown;
      if ('url' in input && source === 'url') event = { event: 'update-image', image_url: input.url };
      else if ('base64' in input && source === 'base64') event = { event: 'update-image', image_base64: input.base64 };
      else event = await blobEvent((input as { blob: Blob }).blob);
      await sendControl(event);
    },
    updateAgentPrompt: async (prompt) => void (await sendControl({ event: 'update-agent-prompt', agent_prompt: prompt })),
    updateIdlePrompt: async (prompt) => void (await sendControl({ event: 'update-idle-prompt', idle_prompt: prompt })),
    action: async (name) => void (await sendControl({ event: 'action', action: name })),
    resetIdleTimeout: async () => void (await sendControl({ event: 'reset-idle-timeout' })),
    async leaveMeeting(meetingBotId) {
      const body = (await loadValidation()).LeaveMeetingRequestSchema.safeParse({ meeting_bot_id: meetingBotId });
      if (!body.success) throw invalidRequest(body.error);
      const c = await requireClient();
      return proxy.leaveMeeting(c.session_id, c.client_token, body.data.meeting_bot_id);
    },
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
