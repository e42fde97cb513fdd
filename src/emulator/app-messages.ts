import * as v from 'valibot';
import { isFinalStatus, LiveAiError } from '../core/index';
import { AppMessageSchema } from '../core/validation';
import { invalidRequest } from '../core/internal';
import type { EmulatorContext } from './context';
import { emitEvent } from './event-log';
import { finish, touch } from './lifecycle';
import type { SessionRecord } from './store';

/** Longest `chat-msg` text, characters; a longer one is refused (413), so one message cannot flood the room or the log. */
export const MAX_CHAT_MESSAGE_CHARS = 2000;
/** Longest `chat-msg` sender name, characters. */
export const MAX_CHAT_NAME_CHARS = 100;

/** The avatar's short placeholder answer to a `chat-msg`. */
export function replyTo(message: string, name: string): string {
  const who = name.trim() ? `, ${name.trim().slice(0, 40)}` : '';
  const text = message.trim().replace(/\s+/g, ' ');
  const quoted = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `Thanks${who}! You said: "${quoted}". I am the local emulator avatar.`;
}

/**
 * Handles an app message from a room participant (hosted-room flow):
 * - `chat-msg` (ACTIVE only; `message` at most {@link MAX_CHAT_MESSAGE_CHARS} characters, `name` at most
 *   {@link MAX_CHAT_NAME_CHARS}, else 413): emits `user_transcription` {transcription: message}, then `agent_transcription`
 *   with a short reply which the media avatar speaks; counts as activity;
 * - `force-end`: the avatar leaves, the session ends COMPLETED and billing stops.
 * @throws LiveAiError `invalid_request` for an invalid message, `payload_too_large` (413) for an oversized chat,
 *   `conflict` (409) when the session cannot take it.
 */
export function handleAppMessage(ctx: EmulatorContext, rec: SessionRecord, raw: unknown): { accepted: true } {
  const parsed = v.safeParse(AppMessageSchema, raw);
  if (!parsed.success) throw invalidRequest(parsed.issues);
  const msg = parsed.output;
  if (msg.event === 'chat-msg' && (msg.message.length > MAX_CHAT_MESSAGE_CHARS || msg.name.length > MAX_CHAT_NAME_CHARS)) {
    const what = msg.message.length > MAX_CHAT_MESSAGE_CHARS ? `message has ${msg.message.length}` : `name has ${msg.name.length}`;
    const max = msg.message.length > MAX_CHAT_MESSAGE_CHARS ? MAX_CHAT_MESSAGE_CHARS : MAX_CHAT_NAME_CHARS;
    throw new LiveAiError('payload_too_large', `chat-msg ${what} characters; at most ${max} are accepted`, { status: 413 });
  }
  if (isFinalStatus(rec.status)) throw new LiveAiError('conflict', `session ${rec.id} has ended (${rec.status})`, { status: 409 });
  if (msg.event === 'force-end') {
    finish(ctx, rec, 'COMPLETED', 'force-end');
    return { accepted: true };
  }
  if (rec.status !== 'ACTIVE')
    throw new LiveAiError('conflict', `session ${rec.id} is ${rec.status}; chat-msg needs an ACTIVE session`, { status: 409 });
  touch(ctx, rec);
  const reply = replyTo(msg.message, msg.name);
  emitEvent(ctx, rec, { type: 'user_transcription', transcription: msg.message });
  emitEvent(ctx, rec, { type: 'agent_transcription', transcription: reply });
  rec.media?.speak(reply).catch((e: unknown) => ctx.options.logger.warn({ session_id: rec.id, err: String(e) }, 'speak failed'));
  return { accepted: true };
}
