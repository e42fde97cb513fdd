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

/** Sender names the widgets send when they know nobody's name: the reply does not address "user". */
const GENERIC_NAMES = new Set(['', 'user', 'guest', 'visitor', 'you', 'anonymous']);

/**
 * The avatar's short spoken answer to a `chat-msg`: a greeting for a greeting, an honest "I cannot look that up"
 * for a question, else what it heard; it addresses the sender by name unless the name is a generic one ("user").
 */
export function replyTo(message: string, name: string): string {
  const first = name.trim().slice(0, 40);
  const to = GENERIC_NAMES.has(first.toLowerCase()) ? '' : `, ${first}`;
  const text = message.trim().replace(/\s+/g, ' ');
  const quoted = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  if (/^(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(text))
    return `Hello${to}! I am a practice avatar running on this computer. Ask me something, and I will answer out loud.`;
  if (text.endsWith('?')) return `Good question${to}. I am a practice avatar, so I cannot look that up, but I heard you ask: "${quoted}"`;
  return `I hear you${to}: "${quoted}". I am a practice avatar; a real agent would answer you here.`;
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
