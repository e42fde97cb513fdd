import type { TextStreamHandler } from './room';
import type { TransportEventMap } from '../types';

/** Text-stream topic of LiveKit Agents transcriptions. */
export const TRANSCRIPTION_TOPIC = 'lk.transcription';
const ATTR_SEGMENT = 'lk.segment_id';

/**
 * A handler for LiveKit Agents' `lk.transcription` text streams. A stream is one segment (`lk.segment_id`): either
 * deltas of one growing text (the agent's speech) or the whole text so far (the user's speech, one stream per
 * update). The segment's text is reported as it grows and once more, `final`, when the stream ends. The speaker is
 * the user when the stream's participant is us (the agent sends the user's transcript on the user's behalf),
 * otherwise the agent. The agent's deltas may come in more than one stream of the same segment (the last part
 * arrives in a stream of its own when the agent flushes after its first stream closed): they continue the
 * segment's text, they do not replace it.
 * Streams from anyone but us and the avatar's side (`fromAvatar`) are ignored.
 * @param localIdentity our identity in the room, when known.
 * @param fromAvatar whether a participant speaks for the avatar (the avatar, or the agent it publishes for).
 */
export function transcriptionHandler(
  localIdentity: () => string | undefined,
  emit: (value: TransportEventMap['transcription']) => void,
  fromAvatar: (identity: string) => boolean = () => true,
): TextStreamHandler {
  /** The agent's segments so far: segment id → text (the last few only). */
  const agentText = new Map<string, string>();
  return (reader, from) => {
    const attrs = reader.info.attributes ?? {};
    const segmentId = attrs[ATTR_SEGMENT] || reader.info.id;
    const role = from.identity && from.identity === localIdentity() ? 'user' : 'agent';
    if (role === 'agent' && !fromAvatar(from.identity)) return;
    void (async () => {
      let text = role === 'agent' ? (agentText.get(segmentId) ?? '') : '';
      const keep = () => {
        if (role !== 'agent') return;
        agentText.delete(segmentId);
        agentText.set(segmentId, text);
        if (agentText.size > 16) agentText.delete(agentText.keys().next().value as string);
      };
      try {
        for await (const chunk of reader) {
          text += chunk;
          keep();
          if (text.trim()) emit({ role, text, segmentId, final: false });
        }
      } catch {
        // the stream broke off (participant left): keep what arrived
      }
      if (text.trim()) emit({ role, text, segmentId, final: true });
    })();
  };
}
