import { keepAudioContextRunning } from '../core/internal';

/** Level of one sample: RMS mapped from -60 dBFS (0) to 0 dBFS (1). */
const toLevel = (rms: number) => (rms > 0 ? Math.min(1, Math.max(0, 1 + (20 * Math.log10(rms)) / 60)) : 0);

/**
 * Measures `track` with the Web Audio API (an `AnalyserNode` on a `MediaStreamAudioSourceNode` of the same track:
 * nothing is played or captured again) once per animation frame. `onLevel` gets the level (0–1) and `bands`
 * levels (0–1, low to high over 100 Hz–4 kHz, where speech is), only when one of them changed by 1/100 or more.
 * Returns the stop function, which closes the audio context. Without Web Audio it reports nothing.
 */
export function meterTrack(track: MediaStreamTrack, bands: number, onLevel: (level: number, bands: number[]) => void): () => void {
  const Ctx = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return () => {};
  const ctx = new Ctx();
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 1024;
  analyser.smoothingTimeConstant = 0.6;
  const source = ctx.createMediaStreamSource(new MediaStream([track]));
  source.connect(analyser);
  // A context made outside a gesture starts suspended in some browsers; measuring needs no output, so resume it.
  void ctx.resume().catch(() => {});
  // An interrupted audio session, a hidden page or a device change can suspend it later: resume it then.
  const unkeep = keepAudioContextRunning(ctx);
  const wave = new Float32Array(analyser.fftSize);
  const spectrum = new Uint8Array(analyser.frequencyBinCount);
  const hz = ctx.sampleRate / analyser.fftSize;
  const lo = Math.max(1, Math.floor(100 / hz));
  const hi = Math.min(spectrum.length, Math.ceil(4000 / hz));
  let last: number[] = [];
  const raf = globalThis.requestAnimationFrame?.bind(globalThis) ?? ((f: () => void) => setTimeout(f, 50) as unknown as number);
  const caf = globalThis.cancelAnimationFrame?.bind(globalThis) ?? ((id: number) => clearTimeout(id));
  let frame = 0;
  const tick = () => {
    analyser.getFloatTimeDomainData(wave);
    let sum = 0;
    for (const x of wave) sum += x * x;
    const next = [Math.round(toLevel(Math.sqrt(sum / wave.length)) * 100) / 100];
    if (bands > 0) {
      analyser.getByteFrequencyData(spectrum);
      // Bands of equal width on a log scale, as the ear hears them.
      for (let b = 0; b < bands; b++) {
        const from = Math.floor(lo * (hi / lo) ** (b / bands));
        const to = Math.max(from + 1, Math.floor(lo * (hi / lo) ** ((b + 1) / bands)));
        let peak = 0;
        for (let i = from; i < to; i++) peak = Math.max(peak, spectrum[i] ?? 0);
        next.push(Math.round((peak / 255) * 100) / 100);
      }
    }
    if (next.some((v, i) => Math.abs(v - (last[i] ?? -1)) >= 0.01)) {
      last = next;
      onLevel(next[0]!, next.slice(1));
    }
    frame = raf(tick);
  };
  frame = raf(tick);
  return () => {
    caf(frame);
    unkeep();
    source.disconnect();
    void ctx.close().catch(() => {});
  };
}
