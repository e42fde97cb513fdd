import { AUDIO_SAMPLE_RATE } from './face';
import { prng } from './motion';

/** One syllable of placeholder speech: its vowel (for the timbre), length and the pause after it, ms. */
export interface Syllable {
  vowel: string;
  durMs: number;
  gapMs: number;
}

/** Longest placeholder speech produced for one `speak()` call, ms (longer text is cut). */
export const MAX_SPEECH_MS = 60_000;

const VOWELS = /[aeiouyàáâäãåæèéêëìíîïòóôöõøœùúûü]+/giu;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Splits `text` into syllables: one per vowel group of each word (at least one per word), 150–250 ms each
 * (varied by a hash of the word), 40 ms gaps inside a word, 90 ms between words, 220 ms after `,;:` and 380 ms
 * after `.!?`. Pure.
 */
export function syllabify(text: string): Syllable[] {
  const out: Syllable[] = [];
  const tokens = text.match(/[\p{L}\p{N}'’-]+|[,;:.!?…]/gu) ?? [];
  for (const tok of tokens) {
    if (/^[,;:.!?…]$/.test(tok)) {
      const last = out[out.length - 1];
      if (last) last.gapMs = /[,;:]/.test(tok) ? 220 : 380;
      continue;
    }
    const groups = tok.toLowerCase().match(VOWELS) ?? ['a'];
    const h = hash(tok);
    groups.forEach((v, i) => {
      out.push({ vowel: v[0] ?? 'a', durMs: 150 + ((h >>> (i * 3)) % 101), gapMs: i === groups.length - 1 ? 90 : 40 });
    });
  }
  return out;
}

/** Formant centres (Hz) per vowel letter, used to tint the harmonics. */
const FORMANTS: Record<string, [number, number]> = {
  a: [750, 1200],
  e: [500, 1900],
  i: [300, 2300],
  o: [500, 900],
  u: [330, 850],
  y: [300, 2000],
};
const formants = (v: string): [number, number] => FORMANTS[v.normalize('NFD')[0] ?? 'a'] ?? [600, 1500];

/** A source of mono PCM16 samples that a player pulls from, 10 ms at a time. */
export interface PcmSource {
  /** Copies up to `n` next samples into `dst` at `offset`; returns how many were written (0 = finished). */
  read(dst: Int16Array, offset: number, n: number): number;
}

/**
 * Placeholder speech for `text`, synthesised lazily one syllable at a time (so a long text never blocks the event
 * loop): per syllable, six harmonics of a pitch that glides down (~150 Hz with phrase declination), tinted by the
 * vowel's formants, a 25 ms raised-cosine attack and 50 ms release, a short noise burst before each syllable
 * (consonant-like) and silence in the gaps. Peak about −8 dBFS, mono PCM16 at `sampleRate` Hz, at most
 * {@link MAX_SPEECH_MS} long. Deterministic.
 */
export class SpeechStream implements PcmSource {
  /** Total length, samples. */
  readonly totalSamples: number;
  private readonly syl: Syllable[];
  private readonly rand: () => number;
  private readonly sampleRate: number;
  private next = 0;
  private produced = 0;
  private chunk: Int16Array = new Int16Array(0);
  private at = 0;
  private phase = 0;

  constructor(text: string, sampleRate = AUDIO_SAMPLE_RATE) {
    this.sampleRate = sampleRate;
    this.syl = syllabify(text);
    this.rand = prng(hash(text));
    let total = 0;
    for (const s of this.syl) total += this.ms(s.durMs) + this.ms(s.gapMs);
    this.totalSamples = Math.min(total, this.ms(MAX_SPEECH_MS));
  }

  private ms(n: number): number {
    return Math.round((n * this.sampleRate) / 1000);
  }

  read(dst: Int16Array, offset: number, n: number): number {
    let written = 0;
    while (written < n && this.produced < this.totalSamples) {
      if (this.at >= this.chunk.length) {
        if (this.next >= this.syl.length) break;
        this.chunk = this.renderSyllable(this.next++);
        this.at = 0;
      }
      const take = Math.min(n - written, this.chunk.length - this.at, this.totalSamples - this.produced);
      dst.set(this.chunk.subarray(this.at, this.at + take), offset + written);
      this.at += take;
      this.produced += take;
      written += take;
    }
    return written;
  }

  /** Renders syllable `k` and the gap after it (ending in the next syllable's noise burst). */
  private renderSyllable(k: number): Int16Array {
    const s = this.syl[k] as Syllable;
    const n = this.ms(s.durMs);
    const out = new Int16Array(n + this.ms(s.gapMs));
    const [f1, f2] = formants(s.vowel);
    const base = 150 * (1.12 - 0.22 * (k / Math.max(1, this.syl.length - 1))) * (0.95 + 0.1 * this.rand());
    const amps = [1, 2, 3, 4, 5, 6].map((h) => {
      const f = base * h;
      return (1 + 2 * Math.exp(-(((f - f1) / 180) ** 2)) + 1.5 * Math.exp(-(((f - f2) / 260) ** 2))) / h;
    });
    const norm = (0.4 * 32767) / amps.reduce((a, b) => a + b, 0);
    const attack = this.ms(25);
    const release = this.ms(50);
    const step = (2 * Math.PI) / this.sampleRate;
    const [a1, a2, a3, a4, a5, a6] = amps as [number, number, number, number, number, number];
    for (let i = 0; i < n; i++) {
      this.phase = (this.phase + step * base * (1.04 - (0.08 * i) / n)) % (2 * Math.PI);
      // Harmonics by the Chebyshev recurrence sin((h+1)φ) = 2cosφ·sin(hφ) − sin((h−1)φ): one sin + one cos per sample.
      const s1 = Math.sin(this.phase);
      const c2 = 2 * Math.cos(this.phase);
      const s2 = c2 * s1;
      const s3 = c2 * s2 - s1;
      const s4 = c2 * s3 - s2;
      const s5 = c2 * s4 - s3;
      const s6 = c2 * s5 - s4;
      const v = a1 * s1 + a2 * s2 + a3 * s3 + a4 * s4 + a5 * s5 + a6 * s6;
      const env =
        i < attack
          ? 0.5 - 0.5 * Math.cos((Math.PI * i) / attack)
          : i > n - release
            ? 0.5 - 0.5 * Math.cos((Math.PI * (n - i)) / release)
            : 1;
      out[i] = Math.round(v * norm * env);
    }
    if (k + 1 < this.syl.length) {
      for (let i = Math.max(n, out.length - this.ms(18)); i < out.length; i++) out[i] = Math.round((this.rand() - 0.5) * 2600);
    }
    return out;
  }
}

/** Synthesises all of `text` at once (see {@link SpeechStream}); for tests and short texts. */
export function synthesizeSpeech(text: string, sampleRate = AUDIO_SAMPLE_RATE): Int16Array {
  const stream = new SpeechStream(text, sampleRate);
  const out = new Int16Array(stream.totalSamples);
  stream.read(out, 0, out.length);
  return out;
}

/** Root mean square of `samples[start, end)` as a fraction of full scale (0–1). */
export function rms(samples: Int16Array, start = 0, end = samples.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += (samples[i] as number) ** 2;
  return end > start ? Math.sqrt(sum / (end - start)) / 32768 : 0;
}

/**
 * Mouth opening (0–1) for an audio RMS (fraction of full scale): logarithmic, −50 dBFS → 0, −16 dBFS → 1, so
 * quiet user PCM and loud synthetic speech both move the mouth.
 */
export function mouthLevel(rmsValue: number): number {
  if (rmsValue <= 0) return 0;
  const db = 20 * Math.log10(rmsValue);
  return Math.min(1, Math.max(0, (db + 50) / 34));
}
