import { appendTranscript } from './state';
import type { TranscriptLine } from './types';

/** How far back a line may be the same utterance from the other source: lines, and ms. */
const RECENT_LINES = 6;
const RECENT_MS = 60_000;

/** Lower case, letters and digits only, single spaces: "Hello, there!" and "hello there" compare equal. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** Same utterance: equal, or one is the beginning of the other (a transcript still growing). */
const same = (a: string, b: string) => {
  const x = norm(a);
  const y = norm(b);
  return x.length > 0 && y.length > 0 && (x === y || x.startsWith(y) || y.startsWith(x));
};

/**
 * Merges the two sources of a transcript into one list of lines, without duplicates:
 * - the service's `user_transcription` / `agent_transcription` events (one final text each);
 * - LiveKit Agents' `lk.transcription` segments (a text that grows, then is final), on rtc-a.
 *
 * The rule: a segment updates its own line in place. A text from one source that matches a recent line of the
 * same speaker from the other source (the last 6 lines, within 60 s; equal after lower-casing and dropping
 * punctuation, or one the beginning of the other) is the same utterance: it joins that line instead of adding
 * one; the longer text is kept. The same words said twice by the service are two lines.
 */
export class TranscriptMerger {
  /** segment id → line id */
  private readonly segments = new Map<string, number>();
  /** Line ids that a segment writes to, and those a service event created or confirmed. */
  private readonly bound = new Set<number>();
  private readonly fromService = new Set<number>();

  constructor(
    private readonly nextId: () => number,
    private readonly maxLines?: number,
  ) {}

  /** A service transcription event; returns the new lines, or null when nothing changes. */
  service(lines: TranscriptLine[], role: TranscriptLine['role'], text: string, now: number): TranscriptLine[] | null {
    const twin = this.recent(lines, role, now).find((l) => !this.fromService.has(l.id) && this.bound.has(l.id) && same(l.text, text));
    if (twin) {
      this.fromService.add(twin.id);
      return norm(text).length > norm(twin.text).length ? replace(lines, twin.id, text) : null;
    }
    const line: TranscriptLine = { id: this.nextId(), role, text, at: now };
    this.fromService.add(line.id);
    return appendTranscript(lines, line, this.maxLines);
  }

  /** A transcription segment (its whole text so far); returns the new lines, or null when nothing changes. */
  segment(
    lines: TranscriptLine[],
    seg: { role: TranscriptLine['role']; text: string; segmentId: string; final: boolean },
    now: number,
  ): TranscriptLine[] | null {
    const key = `${seg.role}:${seg.segmentId}`;
    let id = this.segments.get(key);
    if (id === undefined) {
      const twin = this.recent(lines, seg.role, now).find((l) => !this.bound.has(l.id) && same(l.text, seg.text));
      if (!twin) {
        const line: TranscriptLine = { id: this.nextId(), role: seg.role, text: seg.text, at: now };
        this.bind(key, line.id);
        return appendTranscript(lines, line, this.maxLines);
      }
      id = twin.id;
      this.bind(key, id);
    }
    const line = lines.find((l) => l.id === id);
    if (!line || line.text === seg.text) return null;
    // A service line keeps its (final) text unless the segment's own final text is longer.
    if (this.fromService.has(id) && !(seg.final && norm(seg.text).length > norm(line.text).length)) return null;
    return replace(lines, id, seg.text);
  }

  /** Takes `lines` (added from service events before this merger existed) as the service's lines. */
  adopt(lines: readonly TranscriptLine[]): this {
    for (const l of lines) this.fromService.add(l.id);
    return this;
  }

  /** Forgets everything (a new session). */
  reset(): void {
    this.segments.clear();
    this.bound.clear();
    this.fromService.clear();
  }

  private bind(key: string, id: number): void {
    this.segments.set(key, id);
    this.bound.add(id);
  }

  private recent(lines: TranscriptLine[], role: TranscriptLine['role'], now: number): TranscriptLine[] {
    return lines
      .slice(-RECENT_LINES)
      .filter((l) => l.role === role && now - l.at <= RECENT_MS)
      .reverse();
  }
}

const replace = (lines: TranscriptLine[], id: number, text: string) => lines.map((l) => (l.id === id ? { ...l, text } : l));
