// Statistics the bench scripts share (plain ESM, so both `node scripts/bench.mjs` and the tsx-run pages use it).

/** Median of `xs` (the mean of the two middle values for an even count; NaN for none). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
