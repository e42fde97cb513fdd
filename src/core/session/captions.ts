import type { AgentState } from './agent-state';
import type { TranscriptLine } from './types';

/**
 * Captions in step with the voice. An agent's line usually arrives whole, when it is finalized, before the avatar
 * has said it; the pacer reveals it (the line's `spoken`) word by word while the avatar speaks, so a caption shows
 * what the visitor hears, not what is coming.
 *
 * The rule, for each agent line in order:
 * - it starts hidden (`spoken: ''`) and is revealed only while the avatar speaks (the agent state `speaking`: on
 *   LiveKit Agents rooms the agent's own state, which goes `speaking` when the avatar reports its playback started;
 *   elsewhere the avatar's audio activity in the room);
 * - one word at a time (words as `Intl.Segmenter` cuts them, so no grapheme, emoji or right-to-left word is ever
 *   split), each after its length in graphemes over the speaking rate (default 15 graphemes/s, then measured on
 *   the lines the avatar said in full);
 * - when the avatar stops speaking (at once for an agent's own state, after `holdMs` of quiet for the audio
 *   activity), the line it was saying is shown whole; after `maxWaitMs` of quiet every line still waiting or partly
 *   shown is shown whole too (an agent without voice, or muted audio), as is everything when the call leaves the
 *   room;
 * - an interrupt (`cut()`) freezes the line at what was said: the captions stop where the voice stopped.
 */
export interface CaptionPacerOptions {
  /** Graphemes per second before any line was measured (default 15: about 150 words a minute in English). */
  charsPerSecond?: number;
  /** Quiet after the avatar's audio activity ended before its line counts as said, ms (default 600). */
  holdMs?: number;
  /** Quiet after which every line not yet shown whole (not started, or partly shown) is shown whole, ms (default 4000). */
  maxWaitMs?: number;
}

/** Where the pacer reads and writes the transcript (the session's store). */
export interface CaptionSink {
  lines(): readonly TranscriptLine[];
  write(lines: TranscriptLine[]): void;
}

const MIN_RATE = 6;
const MAX_RATE = 40;

type Segmenter = { segment(text: string): Iterable<{ segment: string; index: number; isWordLike?: boolean }> };
let wordSegmenter: Segmenter | null | undefined;
let graphemeSegmenter: Segmenter | null | undefined;
const segmenter = (granularity: 'word' | 'grapheme'): Segmenter | null => {
  const Ctor = (Intl as unknown as { Segmenter?: new (l?: string, o?: { granularity: string }) => Segmenter }).Segmenter;
  return Ctor ? new Ctor(undefined, { granularity }) : null;
};

/** How many graphemes (user-perceived characters: an emoji with its modifiers, a letter with its marks) `text` has. */
export function graphemeCount(text: string): number {
  graphemeSegmenter ??= segmenter('grapheme');
  if (!graphemeSegmenter) return Array.from(text).length;
  let n = 0;
  for (const _ of graphemeSegmenter.segment(text)) n++;
  return n;
}

/**
 * Where `text` may be cut when revealed word by word: the end (a UTF-16 index) of each unit, a word with the spaces,
 * punctuation and emoji that follow it (leading ones go with the first word). Never inside a grapheme. Pure.
 */
export function wordEnds(text: string): number[] {
  wordSegmenter ??= segmenter('word');
  const ends: number[] = [];
  if (!wordSegmenter) {
    for (const m of text.matchAll(/\s*\S+\s*/gu)) ends.push(m.index + m[0].length);
    return ends;
  }
  let seenWord = false;
  for (const s of wordSegmenter.segment(text)) {
    const end = s.index + s.segment.length;
    if (s.isWordLike && seenWord) ends.push(s.index);
    if (s.isWordLike) seenWord = true;
    if (end === text.length) ends.push(end);
  }
  // The index before each new word closes the previous unit; drop a first "unit" that is empty.
  return ends.filter((e, i) => e > 0 && e !== ends[i - 1]);
}

/** One agent line the pacer reveals. */
interface Paced {
  id: number;
  /** Words revealed so far. */
  shown: number;
  /** Frozen by an interrupt, or shown whole: nothing more to reveal. */
  done: boolean;
  /** When its first word showed and how much speaking time it took (for the measured rate), ms. */
  startedAt: number | null;
}

/** The revealed part of `text`: its first `shown` units. */
const prefix = (text: string, shown: number): string => {
  if (shown <= 0) return '';
  const ends = wordEnds(text);
  return shown >= ends.length ? text : text.slice(0, ends[shown - 1]);
};

/** Reveals agent lines as the avatar speaks them (see {@link CaptionPacerOptions} for the rule). */
export class CaptionPacer {
  private readonly queue: Paced[] = [];
  private rate: number;
  private readonly holdMs: number;
  private readonly maxWaitMs: number;
  private speakingNow = false;
  private source: AgentState['source'] = 'derived';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSeen = 0;

  constructor(
    private readonly sink: CaptionSink,
    options: CaptionPacerOptions = {},
  ) {
    this.rate = options.charsPerSecond ?? 15;
    this.holdMs = options.holdMs ?? 600;
    this.maxWaitMs = options.maxWaitMs ?? 4000;
  }

  /**
   * The transcript about to be written: new agent lines start hidden (`spoken: ''`, or revealed at once when the
   * avatar is already speaking and nothing is before them), changed ones keep what was revealed. Returns the lines
   * to write.
   */
  prepare(lines: TranscriptLine[]): TranscriptLine[] {
    let changed = false;
    // Lines the bounded transcript dropped are no longer paced.
    if (this.queue.length > 0) {
      const present = new Set(lines.map((l) => l.id));
      for (let i = this.queue.length - 1; i >= 0; i--) if (!present.has(this.queue[i]!.id)) this.queue.splice(i, 1);
    }
    for (const l of lines) {
      if (l.role !== 'agent' || l.id <= this.lastSeen) continue;
      this.lastSeen = l.id;
      this.queue.push({ id: l.id, shown: 0, done: false, startedAt: null });
      changed = true;
    }
    const out = this.apply(lines);
    // Once the session has written them (right after this returns): a new line may start at once (the avatar
    // speaking), and a line that grew may go on after its last word was shown.
    if (changed || (this.timer === undefined && this.queue.length > 0)) queueMicrotask(() => this.schedule());
    return out;
  }

  /** The agent state changed: reveal while it is `speaking`. */
  agentState(state: AgentState): void {
    const speaking = state.state === 'speaking';
    this.source = state.source;
    if (speaking === this.speakingNow) return;
    this.speakingNow = speaking;
    clearTimeout(this.quietTimer);
    this.quietTimer = undefined;
    if (!speaking) {
      clearTimeout(this.timer);
      this.timer = undefined;
      // The avatar finished what it was saying: show that line whole (an agent's own state at once; audio activity
      // after a moment of quiet, as it also falls quiet between sentences).
      const finish = () => {
        this.quietTimer = undefined;
        this.finishCurrent(true);
        this.schedule();
      };
      if (this.source === 'agent' || this.holdMs <= 0) finish();
      else this.quietTimer = setTimeout(finish, this.holdMs);
      return;
    }
    this.schedule();
  }

  /** An interrupt: the line being said stops where the voice stopped; lines not begun are dropped. */
  cut(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const p of this.queue) p.done = true;
    this.queue.length = 0;
  }

  /** The call left the room: every line not cut is shown whole. */
  flush(): void {
    clearTimeout(this.timer);
    clearTimeout(this.quietTimer);
    this.timer = this.quietTimer = undefined;
    this.speakingNow = false;
    if (this.queue.length === 0) return;
    for (const p of this.queue) p.shown = Number.POSITIVE_INFINITY;
    this.write();
    this.queue.length = 0;
  }

  /** A new call: forget every line and the measured rate stays. */
  reset(): void {
    this.cut();
    clearTimeout(this.quietTimer);
    this.quietTimer = undefined;
    this.speakingNow = false;
    this.lastSeen = 0;
  }

  /** Stops every timer (the session was disposed). */
  dispose(): void {
    this.reset();
  }

  private current(): Paced | undefined {
    while (this.queue[0]?.done) this.queue.shift();
    return this.queue[0];
  }

  /** Shows the current line whole (it loses its `spoken`); when `measured`, its speaking time updates the rate. */
  private finishCurrent(measured: boolean): void {
    const p = this.current();
    if (!p || p.shown === 0) return;
    const line = this.sink.lines().find((l) => l.id === p.id);
    if (line && measured && p.startedAt !== null) {
      const ms = Date.now() - p.startedAt - (this.source === 'agent' ? 0 : this.holdMs);
      const graphemes = graphemeCount(line.text);
      // A line said in well under a second tells little about the rate.
      if (ms >= 1000 && graphemes >= 10) this.rate = clamp((this.rate + (graphemes * 1000) / ms) / 2);
    }
    p.shown = Number.POSITIVE_INFINITY;
    p.done = true;
    this.write();
  }

  /** Plans the next step: the next word while speaking, or the wait after which a line not begun shows whole. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const p = this.current();
    if (!p) return;
    if (!this.speakingNow) {
      if (!this.quietTimer)
        this.timer = setTimeout(() => {
          // Quiet that long: the lines waiting are not being voiced (an agent without a voice, muted audio, a
          // lost end of speech), so every one shows whole at once, not each after its own wait, and no caption
          // stays cut short after the voice stopped.
          this.timer = undefined;
          for (const q of this.queue) {
            q.shown = Number.POSITIVE_INFINITY;
            q.done = true;
          }
          this.write();
          this.schedule();
        }, this.maxWaitMs);
      return;
    }
    const line = this.sink.lines().find((l) => l.id === p.id);
    if (!line) return void (p.done = true);
    const ends = wordEnds(line.text);
    if (p.shown === 0) {
      // The first word shows as the voice starts.
      p.startedAt = Date.now();
      return this.step(p, ends);
    }
    if (p.shown >= ends.length) {
      // All revealed. With a next line waiting, the voice has moved on to it; else more text may come, and the end
      // of speech finishes the line.
      if (this.queue.length < 2) return;
      p.shown = Number.POSITIVE_INFINITY;
      p.done = true;
      this.write();
      return this.schedule();
    }
    // A word shows as the voice starts it: the next one after the time the one just shown takes to say.
    const word = line.text.slice(ends[p.shown - 2] ?? 0, ends[p.shown - 1]);
    this.timer = setTimeout(() => this.step(p, ends), (graphemeCount(word) * 1000) / this.rate);
  }

  private step(p: Paced, ends: number[]): void {
    this.timer = undefined;
    if (p.done) return this.schedule();
    p.shown = Math.min(p.shown + 1, Math.max(ends.length, 1));
    this.write();
    this.schedule();
  }

  private write(): void {
    const lines = this.sink.lines();
    const next = this.apply(lines as TranscriptLine[]);
    if (next !== lines) this.sink.write(next);
  }

  /**
   * `lines` with each paced line's `spoken` as revealed (and no `spoken` once it is shown whole); the same array when
   * nothing changes. A line cut by an interrupt is no longer paced and keeps what it showed.
   */
  private apply(lines: TranscriptLine[]): TranscriptLine[] {
    let out: TranscriptLine[] | null = null;
    if (this.queue.length === 0) return lines;
    const paced = new Map(this.queue.map((q) => [q.id, q]));
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const p = paced.get(l.id);
      if (!p) continue;
      const whole = p.shown === Number.POSITIVE_INFINITY;
      const spoken = whole ? undefined : prefix(l.text, p.shown);
      if (l.spoken === spoken) continue;
      out ??= lines.slice();
      if (whole) {
        const { spoken: _said, ...rest } = l;
        out[i] = rest;
      } else out[i] = { ...l, spoken };
    }
    return out ?? lines;
  }
}

const clamp = (rate: number) => Math.min(MAX_RATE, Math.max(MIN_RATE, rate));
