/** Least estimated randomness of `sessionSecret`, in bits (32 random bytes give about 150, 64 hex digits about 230). */
export const MIN_SECRET_BITS = 96;

/**
 * Why a session secret is too predictable, or undefined when it looks random enough. The estimate is the
 * secret's length times the Shannon entropy of its byte frequencies, so `xxxx…`, `abab…` or a short
 * alphabet repeated are refused whatever their length.
 */
export function secretProblem(secret: string | Uint8Array): string | undefined {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  const counts = new Map<number, number>();
  for (const b of bytes) counts.set(b, (counts.get(b) ?? 0) + 1);
  let perByte = 0;
  for (const c of counts.values()) {
    const p = c / bytes.length;
    perByte -= p * Math.log2(p);
  }
  // A secret that repeats a short block holds no more than that block.
  const period = periodOf(bytes);
  const bits = perByte * period;
  return bits >= MIN_SECRET_BITS ? undefined : `about ${Math.floor(bits)} bits of randomness; at least ${MIN_SECRET_BITS} needed`;
}

/** Length of the shortest block that, repeated, makes `bytes` (its whole length when there is none). */
function periodOf(bytes: Uint8Array): number {
  for (let p = 1; p <= bytes.length / 2; p++) {
    let ok = true;
    for (let i = p; i < bytes.length && ok; i++) ok = bytes[i] === bytes[i - p];
    if (ok) return p;
  }
  return bytes.length;
}
