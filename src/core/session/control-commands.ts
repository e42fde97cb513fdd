import { LiveAiError, invalidRequest } from '../errors';
import { prepareImage } from '../image/prepare';
import { check, loadValidation } from '../lazy';
import type { ProxyClient } from '../proxy-client';
import type { ClientSession } from '../schemas';
import type { AvatarSessionOptions, ImageInput } from './types';

/**
 * The control commands (control events and leave-meeting), loaded on their first use together with the zod schemas
 * that check their input before any network call. Each takes the session's proxy client and its session handle
 * (null before `start()`).
 */

const requireClient = (client: ClientSession | null): ClientSession => {
  if (!client) throw new LiveAiError('invalid_request', 'no session yet: call start() first', { status: 400 });
  return client;
};

/**
 * Checks that an `updateImage` input names exactly one source (`url`, `base64` or `blob`).
 * @throws LiveAiError `invalid_request` otherwise.
 */
function imageSource(input: ImageInput): 'url' | 'base64' | 'blob' {
  const o = (input ?? {}) as Record<string, unknown>;
  const keys = (['url', 'base64', 'blob'] as const).filter((k) => o[k] != null);
  if (keys.length !== 1) {
    throw new LiveAiError('invalid_request', 'updateImage needs exactly one of url, base64 or blob', { status: 400 });
  }
  const key = keys[0]!;
  if (key === 'blob' && !(o.blob instanceof Blob)) {
    throw new LiveAiError('invalid_request', 'updateImage blob must be a Blob or File', { status: 400 });
  }
  if (key !== 'blob' && typeof o[key] !== 'string') {
    throw new LiveAiError('invalid_request', `updateImage ${key} must be a string`, { status: 400 });
  }
  return key;
}

/**
 * Sends one control event through the proxy, validated first.
 * @throws LiveAiError `invalid_request` (bad event, or no session yet), `payload_too_large` (inline image
 *   ≥ 921600 bytes), or the proxy's error.
 */
export async function sendControl(proxy: ProxyClient, client: ClientSession | null, event: unknown): Promise<{ success: boolean }> {
  const valid = (await loadValidation()).validateControlEvent(event);
  const c = requireClient(client);
  return proxy.control(c.session_id, c.client_token, valid);
}

/**
 * The `update-image` event of an `updateImage` input: a URL or base64 as given; a picked image prepared and sent
 * inline, or, when it cannot fit under `inlineImageMaxBytes`, hosted by `uploadImage` and sent as a URL.
 * @throws LiveAiError `invalid_request` (not exactly one source, or no session yet), `payload_too_large` (too
 *   large and no `uploadImage`), `handler_error` (your `uploadImage` failed).
 */
export async function imageEvent(
  input: ImageInput,
  client: ClientSession | null,
  o: Pick<AvatarSessionOptions, 'uploadImage' | 'inlineImageMaxBytes'>,
): Promise<unknown> {
  const source = imageSource(input);
  requireClient(client);
  if ('url' in input && source === 'url') return { event: 'update-image', image_url: input.url };
  if ('base64' in input && source === 'base64') return { event: 'update-image', image_base64: input.base64 };
  const blob = (input as { blob: Blob }).blob;
  try {
    const maxBytes = o.inlineImageMaxBytes;
    return { event: 'update-image', image_base64: (await prepareImage(blob, maxBytes ? { maxBytes } : {})).base64 };
  } catch (e) {
    if (!(e instanceof LiveAiError && e.code === 'payload_too_large' && o.uploadImage)) throw e;
    const url = await o.uploadImage(blob).catch((cause: unknown) => {
      if (cause instanceof LiveAiError) throw cause;
      const why = String((cause as Error)?.message ?? cause);
      throw new LiveAiError('handler_error', `image too large to send inline, and your uploadImage failed: ${why}`, { cause });
    });
    return { event: 'update-image', image_url: url };
  }
}

/**
 * Asks the proxy to make the avatar leave a third-party meeting.
 * @throws LiveAiError `invalid_request` (bad id, or no session yet) or the proxy's error.
 */
export async function leaveMeeting(proxy: ProxyClient, client: ClientSession | null, meetingBotId: string): Promise<{ status: 'left' }> {
  const body = await check({ meeting_bot_id: meetingBotId }, (s) => s.LeaveMeetingRequestSchema, 'all');
  if (!body.success) throw invalidRequest(body.issues);
  const c = requireClient(client);
  return proxy.leaveMeeting(c.session_id, c.client_token, body.output.meeting_bot_id);
}
