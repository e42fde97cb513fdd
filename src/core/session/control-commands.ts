import { LiveAiError, invalidRequest } from '../errors';
import { prepareImage } from '../image/prepare';
import { loadValidation } from '../lazy';
import type { ClientSession, ControlEvent } from '../schemas';
import type { CommandContext } from './commands';
import { imageSource } from './controls';
import type { SessionCommands } from './types';

/** The session commands this chunk serves: every one but chat and force-end. */
export type ControlCommands = Omit<SessionCommands, 'sendChat' | 'forceEnd'>;

/**
 * The control commands (control events and leave-meeting), loaded on their first use together with the zod schemas
 * that check their input before any network call.
 * @throws LiveAiError `invalid_request` (bad input, or no session yet), `payload_too_large` (inline image
 *   ≥ 921600 bytes), or the proxy's error.
 */
export function createControlCommands(ctx: CommandContext, client: () => ClientSession | null): ControlCommands {
  const { proxy } = ctx;
  const requireClient = (): ClientSession => {
    const c = client();
    if (!c) throw new LiveAiError('invalid_request', 'no session yet: call start() first', { status: 400 });
    return c;
  };
  const sendControl = async (event: unknown) => {
    const valid = (await loadValidation()).validateControlEvent(event);
    const c = requireClient();
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
    control: (event: ControlEvent) => sendControl(event),
    async updateImage(input) {
      const source = imageSource(input);
      requireClient();
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
      const c = requireClient();
      return proxy.leaveMeeting(c.session_id, c.client_token, body.data.meeting_bot_id);
    },
  };
}
