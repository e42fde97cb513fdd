import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentState } from '../../../src/core/session/agent-state';
import { CaptionPacer, wordEnds } from '../../../src/core/session/captions';
import type { TranscriptLine } from '../../../src/core/session/types';
import { createFakeProxy } from '../../../src/testing';
import { harness, type Harness, until, useFakeClock } from './helpers';

/**
 * Issue 40.2, captions in step with the voice: an agent line that arrives whole, ahead of the avatar's audio, is
 * revealed (its `spoken`) word by word while the avatar speaks, whole when it stops; never a broken character,
 * emoji or right-to-left word.
 */
const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

/** A pacer over a plain transcript, recording every `spoken` it showed for line 1. */
function setup(options: ConstructorParameters<typeof CaptionPacer>[1] = {}) {
  let lines: TranscriptLine[] = [];
  const shown: (string | undefined)[] = [];
  const pacer = new CaptionPacer(
    {
      lines: () => lines,
      write: (next) => {
        lines = next;
        shown.push(next.find((l) => l.id === 1)?.spoken);
      },
    },
    options,
  );
  const add = (id: number, text: string, role: TranscriptLine['role'] = 'agent') => {
    lines = pacer.prepare([...lines, { id, role, text, at: Date.now() }]);
    shown.push(lines.find((l) => l.id === 1)?.spoken);
  };
  const state = (s: AgentState['state'], source: AgentState['source'] = 'derived') =>
    pacer.agentState({ state: s, since: Date.now(), source });
  return { pacer, add, state, shown, line: (id = 1) => lines.find((l) => l.id === id)!, all: () => lines };
}

let pacers: CaptionPacer[] = [];
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => {
  for (const p of pacers) p.dispose();
  pacers = [];
  vi.useRealTimers();
});

describe('CaptionPacer (issue 40.2)', () => {
  it('hides a line that arrives ahead of the voice, reveals it word by word while the avatar speaks, whole when it stops', () => {
    const t = setup();
    pacers.push(t.pacer);
    const text = 'Hello there, I am the avatar and I speak slowly.';
    t.add(1, text);
    expect(t.line().spoken).toBe('');
    vi.advanceTimersByTime(1000); // the text came early: nothing shows until the voice starts
    expect(t.line().spoken).toBe('');
    t.state('speaking');
    expect(t.line().spoken).toBe('Hello ');
    vi.advanceTimersByTime(1000); // 15 graphemes a second: each word shows as it starts, after the one before it
    expect(t.line().spoken).toBe('Hello there, I am ');
    vi.advanceTimersByTime(1000);
    const mid = t.line().spoken!;
    expect(text.startsWith(mid) && mid.length < text.length).toBe(true);
    t.state('listening'); // the avatar's audio went quiet
    vi.advanceTimersByTime(599);
    expect(t.line().spoken).toBe(mid); // a pause between sentences is not the end
    vi.advanceTimersByTime(1);
    expect(t.line()).toEqual(expect.objectContaining({ text }));
    expect(t.line().spoken).toBeUndefined(); // said: the whole line
  });

  it("an agent's own state ends the line at once; the measured rate paces the next line", () => {
    const t = setup();
    pacers.push(t.pacer);
    t.add(1, 'One two three four five six seven eight nine ten.'); // 49 graphemes
    t.state('speaking', 'agent');
    vi.advanceTimersByTime(1500); // said in 1.5 s: 33 graphemes a second, faster than the default
    t.state('listening', 'agent');
    expect(t.line().spoken).toBeUndefined();
    t.add(2, 'Eleven twelve thirteen fourteen fifteen sixteen.');
    t.state('speaking', 'agent');
    vi.advanceTimersByTime(1000);
    // At the first guess (15 a second) 1 s showed about 15 graphemes; the measured rate (about 24 a second) more.
    expect(t.line(2).spoken!.length).toBeGreaterThan(20);
  });

  it('Arabic: only whole words, in their order, never a broken letter; the whole line at the end', () => {
    const t = setup();
    pacers.push(t.pacer);
    const text = 'مرحبًا بك! أنا الأفاتار، وسأجيب عن سؤالك الآن.';
    t.add(1, text);
    t.state('speaking');
    for (let i = 0; i < 40; i++) vi.advanceTimersByTime(100);
    t.state('listening');
    vi.advanceTimersByTime(600);
    const seen = [...new Set(t.shown.filter((s): s is string => typeof s === 'string' && s !== ''))];
    expect(seen.length).toBeGreaterThan(3);
    for (const s of seen) {
      expect(text.startsWith(s)).toBe(true);
      // Each cut is at a word's end: what follows is a space or the end, and what was shown ends in a space or mark.
      expect(s === text || /\s$/u.test(s)).toBe(true);
      expect(graphemes(text).slice(0, graphemes(s).length).join('')).toBe(s);
    }
    expect(t.line().spoken).toBeUndefined();
  });

  it('emoji with skin tones and families, and a language without spaces, are never split', () => {
    const text = 'Hi 👋🏽 family 👨‍👩‍👧! こんにちは、元気ですか？';
    const cuts = wordEnds(text);
    expect(cuts[cuts.length - 1]).toBe(text.length);
    const all = graphemes(text);
    for (const end of cuts) {
      const s = text.slice(0, end);
      expect(all.slice(0, graphemes(s).length).join('')).toBe(s); // a cut between graphemes, never inside one
    }
    expect(cuts.map((e) => text.slice(0, e))).toContain('Hi 👋🏽 ');
    expect(cuts.map((e) => text.slice(0, e))).toContain('Hi 👋🏽 family 👨‍👩‍👧! ');
    // Japanese has no spaces; it is still revealed in more than one step.
    expect(cuts.filter((e) => e > text.indexOf('こ')).length).toBeGreaterThan(1);
  });

  it('a line that arrives while the avatar already speaks starts at once', async () => {
    const t = setup();
    pacers.push(t.pacer);
    t.state('speaking', 'agent');
    t.add(1, 'Arriving late, said already.');
    await Promise.resolve();
    expect(t.line().spoken).toBe('Arriving ');
    vi.advanceTimersByTime(1000);
    expect(t.line().spoken).toBe('Arriving late, said ');
  });

  it('a line the avatar never starts shows whole after 4 s; user lines are never paced', async () => {
    const t = setup();
    pacers.push(t.pacer);
    t.add(1, 'Nobody will say this out loud.');
    t.add(2, 'What the visitor typed', 'user');
    await Promise.resolve();
    expect(t.line(2).spoken).toBeUndefined();
    vi.advanceTimersByTime(3999);
    expect(t.line().spoken).toBe('');
    vi.advanceTimersByTime(1);
    expect(t.line().spoken).toBeUndefined();
  });

  it('an interrupt freezes the line where the voice stopped', () => {
    const t = setup();
    pacers.push(t.pacer);
    t.add(1, 'This is a long answer that goes on and on about the weather and the sea.');
    t.state('speaking', 'agent');
    vi.advanceTimersByTime(1000);
    t.pacer.cut();
    const at = t.line().spoken!;
    t.state('listening', 'agent');
    vi.advanceTimersByTime(10_000);
    expect(t.line().spoken).toBe(at);
    expect(at.length).toBeGreaterThan(0);
  });
});

describe('the session reveals agent lines with the voice (issue 40.2)', () => {
  let h: Harness | undefined;
  beforeEach(() => {
    vi.useRealTimers();
    useFakeClock();
  });
  afterEach(() => {
    h?.session.dispose({ end: false });
    h = undefined;
  });

  it('agent_transcription arrives whole; the store shows it as the avatar speaks, then whole', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.start();
    const text = 'Good question. I am a practice avatar, so I cannot look that up.';
    h.transport.emitEvent({ type: 'agent_transcription', transcription: text });
    const line = () => h!.session.store.getState().transcript.at(-1)!;
    expect(line()).toMatchObject({ role: 'agent', text, spoken: '' });
    h.transport.emitRoom('speaking', { who: 'avatar', speaking: true });
    await until(() => line().spoken === 'Good ', 'first word');
    await vi.advanceTimersByTimeAsync(1000);
    expect(text.startsWith(line().spoken!) && line().spoken!.length < text.length).toBe(true);
    h.transport.emitRoom('speaking', { who: 'avatar', speaking: false });
    await until(() => line().spoken === undefined, 'the whole line');
  });

  it('pacedCaptions: false leaves lines as they arrive', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }), pacedCaptions: false });
    await h.session.start();
    h.transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello.' });
    expect(h.session.store.getState().transcript.at(-1)).not.toHaveProperty('spoken');
  });
});
