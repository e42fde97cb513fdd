import type { PcmSource } from './speech';

/**
 * Streaming 16 kHz → 48 kHz upsampler for mono PCM16 (×3, linear interpolation between consecutive input
 * samples; the last sample of one chunk carries over to the next, so chunk borders are seamless).
 */
export class Upsampler3x {
  private prev = 0;

  /** Returns `input.length × 3` samples at 48 kHz. */
  push(input: Int16Array): Int16Array {
    const out = new Int16Array(input.length * 3);
    let prev = this.prev;
    for (let i = 0, o = 0; i < input.length; i++, o += 3) {
      const x = input[i] as number;
      const d = x - prev;
      out[o] = Math.round(prev + d / 3);
      out[o + 1] = Math.round(prev + (2 * d) / 3);
      out[o + 2] = x;
      prev = x;
    }
    this.prev = prev;
    return out;
  }

  /** Forgets the carried-over sample (after the queue was cut off). */
  reset(): void {
    this.prev = 0;
  }
}

/** A {@link PcmSource} over a fixed array of samples. */
export class ArrayPcmSource implements PcmSource {
  private at = 0;
  constructor(private readonly samples: Int16Array) {}
  read(dst: Int16Array, offset: number, n: number): number {
    const take = Math.min(n, this.samples.length - this.at);
    dst.set(this.samples.subarray(this.at, this.at + take), offset);
    this.at += take;
    return take;
  }
}
