// A local stand-in for a text-to-speech model: speech-like PCM (voiced syllables with pauses) for any text,
// because no cloud model is reachable here. It implements the TTS interface of @livekit/agents, so the agent
// pipeline (sentence splitting, transcription, the avatar's audio output) runs unchanged.
import { AudioFrame } from '@livekit/rtc-node';
import { tts } from '@livekit/agents';

export const SAMPLE_RATE = 24000;
const FRAME = SAMPLE_RATE / 50; // 20 ms

/** Syllables of `text`: one per vowel group of each word, with pauses after words and punctuation (ms). */
export function syllables(text) {
  const out = [];
  for (const tok of text.match(/[\p{L}\p{N}'’-]+|[,;:.!?]/gu) ?? []) {
    if (/^[,;:.!?]$/.test(tok)) {
      if (out.length) out[out.length - 1].gapMs = /[,;:]/.test(tok) ? 220 : 380;
      continue;
    }
    const groups = tok.toLowerCase().match(/[aeiouy]+/g) ?? ['a'];
    groups.forEach((_, i) => out.push({ durMs: 150 + ((tok.length * 37 + i * 53) % 90), gapMs: i === groups.length - 1 ? 90 : 40 }));
  }
  return out;
}

/** PCM16 mono at 24 kHz: each syllable a voiced sound (a 120–150 Hz pitch with harmonics) under a smooth envelope. */
export function synthesizePcm(text) {
  const parts = syllables(text);
  const total = parts.reduce((n, s) => n + Math.round(((s.durMs + s.gapMs) * SAMPLE_RATE) / 1000), 0);
  const pcm = new Int16Array(total);
  let at = 0;
  parts.forEach((s, k) => {
    const n = Math.round((s.durMs * SAMPLE_RATE) / 1000);
    const f0 = 120 + (k % 3) * 15;
    for (let i = 0; i < n; i++) {
      const t = i / SAMPLE_RATE;
      const env = Math.sin((Math.PI * i) / n) ** 0.6;
      const v = Math.sin(2 * Math.PI * f0 * t) + 0.5 * Math.sin(4 * Math.PI * f0 * t) + 0.3 * Math.sin(6 * Math.PI * f0 * t + 1);
      pcm[at + i] = Math.round(9000 * env * v);
    }
    at += n + Math.round((s.gapMs * SAMPLE_RATE) / 1000);
  });
  return pcm;
}

class SpeechChunkedStream extends tts.ChunkedStream {
  label = 'local.SpeechTTS';
  #text;
  #onFirstFrame;
  constructor(text, owner, onFirstFrame, connOptions, abortSignal) {
    super(text, owner, connOptions, abortSignal);
    this.#text = text;
    this.#onFirstFrame = onFirstFrame;
  }
  async run() {
    const pcm = synthesizePcm(this.#text);
    const requestId = `req-${Date.now()}`;
    for (let i = 0; i < pcm.length; i += FRAME) {
      if (this.abortController.signal.aborted) return;
      const data = pcm.slice(i, i + FRAME);
      if (i === 0) this.#onFirstFrame?.(this.#text);
      this.queue.put({
        requestId,
        segmentId: requestId,
        frame: new AudioFrame(data, SAMPLE_RATE, 1, data.length),
        final: i + FRAME >= pcm.length,
      });
    }
  }
}

/** Non-streaming TTS: the agent framework splits the text into sentences and calls `synthesize` for each. */
export class SpeechTTS extends tts.TTS {
  label = 'local.SpeechTTS';
  /** @param {(text: string) => void} [onFirstFrame] called when the first frame of a sentence is produced */
  constructor(onFirstFrame) {
    super(SAMPLE_RATE, 1, { streaming: false });
    this.onFirstFrame = onFirstFrame;
  }
  synthesize(text, connOptions, abortSignal) {
    return new SpeechChunkedStream(text, this, this.onFirstFrame, connOptions, abortSignal);
  }
  stream() {
    throw new Error('SpeechTTS does not stream; the agent wraps it in a StreamAdapter');
  }
}
