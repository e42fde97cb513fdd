import type { Demeanour } from './types';

/** How the avatar moves and looks: derived from a prompt by keywords. */
export interface Style {
  /** Mouth curve, −1 (frown) … 0 (neutral) … 1 (broad smile). */
  smile: number;
  /** Motion amplitude multiplier (1 = default idle motion). */
  amount: number;
  /** Motion speed multiplier (1 = default tempo). */
  speed: number;
}

export const NEUTRAL_STYLE: Style = { smile: 0.1, amount: 1, speed: 1 };

/**
 * Keyword mapping from prompt text to style (word stems, case-insensitive; every matching group applies):
 *
 * | words (stems) | effect |
 * |---|---|
 * | happy, cheerful, joyful, smiling, friendly, warm, playful, delighted, glad, funny | smile +0.8 |
 * | content, pleasant, kind, positive, polite, welcoming | smile +0.4 |
 * | sad, gloomy, melancholic, unhappy, upset, grumpy, angry, stern, serious, bored | smile −0.6 |
 * | calm, relaxed, serene, peaceful, gentle, soothing, quiet, sleepy, tired, slow | speed ×0.55, amount ×0.6 |
 * | energetic, excited, enthusiastic, lively, bouncy, hyper, dynamic, animated, upbeat, fast | speed ×1.6, amount ×1.9 |
 * | nervous, anxious, fidgety, restless | speed ×1.4, amount ×1.2 |
 *
 * Smile is clamped to [−1, 1], speed to [0.4, 2], amount to [0.3, 2.2]. Text without keywords is neutral.
 */
const RULES: ReadonlyArray<{ re: RegExp; smile?: number; speed?: number; amount?: number }> = [
  { re: /\b(happ|cheer|joy|smil|friendl|warm|playful|delight|glad|funn)/i, smile: 0.8 },
  { re: /\b(content|pleasant|kind|positiv|polite|welcom)/i, smile: 0.4 },
  { re: /\b(sad|gloom|melanchol|unhapp|upset|grump|angr|stern|serious|bored)/i, smile: -0.6 },
  { re: /\b(calm|relax|seren|peace|gentl|sooth|quiet|sleep|tired|slow)/i, speed: 0.55, amount: 0.6 },
  { re: /\b(energ|excit|enthusias|livel|bounc|hyper|dynamic|animat|upbeat|fast)/i, speed: 1.6, amount: 1.9 },
  { re: /\b(nervous|anxi|fidget|restless)/i, speed: 1.4, amount: 1.2 },
];

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Maps prompt text to a {@link Style} (see the keyword table above). Pure. */
export function styleFromPrompt(prompt: string | undefined): Style {
  if (!prompt) return NEUTRAL_STYLE;
  let { smile, amount, speed } = NEUTRAL_STYLE;
  for (const rule of RULES) {
    if (!rule.re.test(prompt)) continue;
    if (rule.smile !== undefined) smile = (smile === NEUTRAL_STYLE.smile ? 0 : smile) + rule.smile;
    if (rule.speed !== undefined) speed *= rule.speed;
    if (rule.amount !== undefined) amount *= rule.amount;
  }
  return { smile: clamp(smile, -1, 1), amount: clamp(amount, 0.3, 2.2), speed: clamp(speed, 0.4, 2) };
}

/**
 * Styles for the two phases: `speaking` follows `agentPrompt` (falling back to `idlePrompt`), `idle` follows
 * `idlePrompt` (falling back to `agentPrompt`), as the service does (`update-agent-prompt` / `update-idle-prompt`).
 */
export function stylesFromDemeanour(d: Demeanour): { idle: Style; speaking: Style } {
  return {
    idle: styleFromPrompt(d.idlePrompt ?? d.agentPrompt),
    speaking: styleFromPrompt(d.agentPrompt ?? d.idlePrompt),
  };
}

/** Moves `current` a fraction `k` (0–1) of the way towards `target`, in place. */
export function easeStyle(current: Style, target: Style, k: number): void {
  current.smile += (target.smile - current.smile) * k;
  current.amount += (target.amount - current.amount) * k;
  current.speed += (target.speed - current.speed) * k;
}
