import { AUDIO_FRAME_SAMPLES, AUDIO_SAMPLE_RATE } from './face';
import { mouthLevel, rms, type PcmSource } from './speech';

/** Where the player sends audio: in production a `@livekit/rtc-node` `AudioSource` (48 kHz mono). */
export interface AudioSink {
  /** Takes one frame (`frameSamples` samples); resolves when the sink can take the next one (back-pressure). */
  capture(samples: Int16Array): Promise<void>;
  /** Audio accepted but not played out yet, ms. */
  queuedMs(): number;
}

interface Clip {
  src: PcmSource;
  onDone: (() => void) | undefined;
}

const RING = 256;
/** Window over which the mouth takes the loudest 10 ms frame, ms (about one video frame). */
const LEVEL_WINDOW_MS = 45;

/**
 * Plays queued PCM through an {@link AudioSink} in frames of `frameSamples` (default 10 ms), paced only by the sink's
 * back-pressure — no timers. While nothing is queued it sends nothing and waits for the next clip: the sink fills the
 * gap with silence itself (rtc-node's `AudioSource` feeds the track a silent 10 ms frame whenever its queue runs dry,
 * so the published track stays continuous). For each 10 ms of each frame it records when it will be heard (`now + sink.queuedMs()` plus its
 * offset in the frame) and its mouth level, so `levelAt(now)` follows what the viewer hears at 10 ms resolution.
 */
export class AudioPlayer {
  private clips: Clip[] = [];
  private readonly times = new Float64Array(RING).fill(-Infinity);
  private readonly levels = new Float32Array(RING);
  private head = 0;
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly pending = new Map<ReturnType<typeof setTimeout>, () => void>();
  /** `onDone` of clips that ended in the frame being captured now. */
  private inflight: Array<() => void> = [];
  /** Wakes the idle loop (set while it waits for a clip). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly sink: AudioSink,
    private readonly now: () => number = () => performance.now(),
    private readonly frameSamples = AUDIO_FRAME_SAMPLES,
    private readonly onError: (e: unknown) => void = () => {},
  ) {}

  /** Queues `src` after what is already queued; `onDone` runs once it has been played out (or cut off). */
  enqueue(src: PcmSource, onDone?: () => void): void {
    this.clips.push({ src, onDone });
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** True while something is queued or playing. */
  get busy(): boolean {
    return this.clips.length > 0 || this.pending.size > 0;
  }

  /** Cuts off everything queued (an image change cuts the audio); their `onDone` run now. */
  clear(): void {
    const clips = this.clips;
    this.clips = [];
    for (const c of clips) c.onDone?.();
    for (const done of this.inflight.splice(0)) done();
    for (const [t, done] of this.pending) {
      clearTimeout(t);
      done();
    }
    this.pending.clear();
    this.times.fill(-Infinity);
  }

  /** Mouth level 0–1 of the audio heard at `nowMs` (the loudest frame of the last ~45 ms; 0 when silent). */
  levelAt(nowMs: number): number {
    let best = 0;
    for (let k = 1; k <= RING; k++) {
      const i = (this.head - k + RING) % RING;
      const t = this.times[i] as number;
      if (t > nowMs) continue;
      if (t <= nowMs - LEVEL_WINDOW_MS) break;
      best = Math.max(best, this.levels[i] as number);
    }
    return best;
  }

  /** Starts the playout loop (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops the loop and cuts off the queue; waits at most `maxWaitMs` for the in-flight frame. */
  async stop(maxWaitMs = 300): Promise<void> {
    this.running = false;
    this.clear();
    this.wakeUp();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.loopDone, new Promise<void>((r) => (timer = setTimeout(r, maxWaitMs)))]);
    clearTimeout(timer);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      if (this.clips.length === 0) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const data = new Int16Array(this.frameSamples);
      const finished: Array<() => void> = (this.inflight = []);
      let filled = 0;
      while (filled < data.length && this.clips.length > 0) {
        const clip = this.clips[0] as Clip;
        const got = clip.src.read(data, filled, data.length - filled);
        filled += got;
        if (filled < data.length) {
          this.clips.shift();
          if (clip.onDone) finished.push(clip.onDone);
        }
      }
      const playAt = this.now() + this.sink.queuedMs();
      for (let at = 0; at < data.length; at += AUDIO_FRAME_SAMPLES) {
        this.times[this.head] = playAt + (at * 1000) / AUDIO_SAMPLE_RATE;
        this.levels[this.head] = mouthLevel(rms(data, at, Math.min(data.length, at + AUDIO_FRAME_SAMPLES)));
        this.head = (this.head + 1) % RING;
      }
      try {
        await this.sink.capture(data);
      } catch (e) {
        if (this.running) this.onError(e);
        this.running = false;
        this.clear();
        return;
      }
      const frameMs = (data.length * 1000) / AUDIO_SAMPLE_RATE;
      for (const done of finished.splice(0)) this.afterPlayout(playAt + frameMs, done);
    }
  }

  private afterPlayout(atMs: number, done: () => void): void {
    const wait = atMs - this.now();
    if (wait <= 0 || !this.running) return done();
    const t = setTimeout(() => {
      this.pending.delete(t);
      done();
    }, wait);
    this.pending.set(t, done);
  }
}
