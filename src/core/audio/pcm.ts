import { PCM_FRAME_BYTES, PCM_SAMPLE_RATE } from './format';

/** Averages channels into one mono channel (the shortest channel sets the length). Pure. */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 0) return new Float32Array(0);
  if (channels.length === 1) return channels[0]!.slice();
  const n = Math.min(...channels.map((c) => c.length));
  const out = new Float32Array(n);
  for (const c of channels) for (let i = 0; i < n; i++) out[i]! += c[i]!;
  for (let i = 0; i < n; i++) out[i]! /= channels.length;
  return out;
}

/**
 * Streaming resampler from `fromRate` to `toRate` (Hz). Downsampling averages each output sample's input window
 * (a box filter against aliasing, e.g. 48 kHz → 16 kHz averages 3 samples); upsampling interpolates linearly.
 * `push` returns what can be produced so far and keeps the rest across chunk boundaries; `flush` returns the tail.
 * @throws RangeError for non-positive rates.
 */
export function createResampler(fromRate: number, toRate: number) {
  if (!(fromRate > 0 && toRate > 0)) throw new RangeError('sample rates must be positive');
  const r = fromRate / toRate;
  let buf = new Float32Array(0);
  let base = 0; // absolute input index of buf[0]
  let k = 0; // next output index
  const at = (j: number) => buf[j - base]!;
  const run = (flush: boolean): Float32Array => {
    const total = base + buf.length;
    const out: number[] = [];
    for (;;) {
      if (r >= 1) {
        const a = Math.floor(k * r);
        const b = Math.max(a + 1, Math.floor((k + 1) * r));
        if (b > total && (!flush || a >= total)) break;
        const end = Math.min(b, total);
        let s = 0;
        for (let j = a; j < end; j++) s += at(j);
        out.push(s / (end - a));
      } else {
        const p = k * r;
        const i = Math.floor(p);
        if (i + 1 >= total) {
          if (!flush || i >= total) break;
          out.push(at(i));
        } else {
          const f = p - i;
          out.push(at(i) * (1 - f) + at(i + 1) * f);
        }
      }
      k++;
    }
    const keepFrom = Math.min(Math.floor(k * r), total);
    buf = buf.slice(keepFrom - base);
    base = keepFrom;
    return Float32Array.from(out);
  };
  return {
    push(chunk: Float32Array): Float32Array {
      const next = new Float32Array(buf.length + chunk.length);
      next.set(buf);
      next.set(chunk, buf.length);
      buf = next;
      return run(false);
    },
    flush: (): Float32Array => run(true),
  };
}

/** Resamples a whole signal (see `createResampler`). Pure. */
export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return input.slice();
  const rs = createResampler(fromRate, toRate);
  const a = rs.push(input);
  const b = rs.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Float samples (−1..1, clamped) to PCM16 little-endian bytes. Pure. */
export function floatToPcm16(samples: Float32Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, Math.round(s < 0 ? s * 0x8000 : s * 0x7fff), true);
  }
  return out;
}

/** Cuts a byte stream into frames of `frameBytes` (default 640 = 20 ms); `flush` pads the last one with silence. */
export function createFramer(frameBytes = PCM_FRAME_BYTES) {
  let pending = new Uint8Array(0);
  return {
    push(bytes: Uint8Array): Uint8Array[] {
      const all = new Uint8Array(pending.length + bytes.length);
      all.set(pending);
      all.set(bytes, pending.length);
      const frames: Uint8Array[] = [];
      let i = 0;
      for (; i + frameBytes <= all.length; i += frameBytes) frames.push(all.slice(i, i + frameBytes));
      pending = all.slice(i);
      return frames;
    },
    flush(): Uint8Array[] {
      if (pending.length === 0) return [];
      const last = new Uint8Array(frameBytes);
      last.set(pending);
      pending = new Uint8Array(0);
      return [last];
    },
  };
}

/** Whole signal → 20 ms PCM16 mono 16 kHz frames (the last padded with silence). Pure. */
export function toPcmFrames(channels: readonly Float32Array[], sampleRate: number): Uint8Array[] {
  const framer = createFramer();
  return [...framer.push(floatToPcm16(resample(downmix(channels), sampleRate, PCM_SAMPLE_RATE))), ...framer.flush()];
}

/** Captures a microphone with a ScriptProcessor (no worklet file to host) until stopped or the track ends. */
export async function streamMicrophone(
  stream: MediaStream,
  ctx: AudioContext,
  send: (frame: Uint8Array) => void,
  setTeardown: (t: () => void) => void,
  isStopped: () => boolean,
): Promise<void> {
  const resampler = createResampler(ctx.sampleRate, PCM_SAMPLE_RATE);
  const framer = createFramer();
  const src = ctx.createMediaStreamSource(stream);
  const proc = ctx.createScriptProcessor(2048, src.channelCount || 1, 1);
  const mute = ctx.createGain();
  mute.gain.value = 0;
  proc.onaudioprocess = (e) => {
    const input = e.inputBuffer;
    const chans = Array.from({ length: input.numberOfChannels }, (_, i) => input.getChannelData(i));
    for (const f of framer.push(floatToPcm16(resampler.push(downmix(chans))))) send(f);
  };
  src.connect(proc);
  proc.connect(mute);
  mute.connect(ctx.destination);
  await ctx.resume?.().catch(() => {});
  await new Promise<void>((resolve) => {
    const track = stream.getAudioTracks()[0];
    const end = () => {
      proc.onaudioprocess = null;
      src.disconnect();
      proc.disconnect();
      mute.disconnect();
      void ctx.close().catch(() => {});
      resolve();
    };
    setTeardown(end);
    track?.addEventListener('ended', end, { once: true });
    if (isStopped() || !track) end();
  });
}
