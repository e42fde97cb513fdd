// Statistics of the soak figures: quantiles, and the median of per-window values with a 90 % bootstrap interval
// (the windows resampled with replacement, 2000 draws, seeded so a re-run of the same data repeats it), as
// docs/benchmarks.md reports its rounds.
import { median } from '../bench/stats.mjs';

export { median };

/** The q-quantile (0..1) of `xs` by nearest rank; NaN for none. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** A small seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Median of `xs` with its 90 % bootstrap interval; `n` is how many values it rests on. */
export function medianInterval(xs: readonly number[]): { median: number; lo: number; hi: number; n: number } {
  const vals = xs.filter((x) => Number.isFinite(x));
  if (vals.length === 0) return { median: NaN, lo: NaN, hi: NaN, n: 0 };
  const random = rng(42);
  const draws: number[] = [];
  for (let i = 0; i < 2000; i += 1)
    draws.push(median(Array.from({ length: vals.length }, () => vals[Math.floor(random() * vals.length)]!)));
  return { median: median(vals), lo: quantile(draws, 0.05), hi: quantile(draws, 0.95), n: vals.length };
}
