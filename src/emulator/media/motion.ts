import { ACTION_MS, FRAME_HEIGHT } from './face';

/**
 * Whole-frame deformation of one video frame. All lengths in px of the 368×560 frame.
 * - `dx`: sideways shift (+ right); `dy`: vertical shift (+ down);
 * - `shear`: sideways lean, px per row measured from the bottom row (+ leans the top to the right);
 * - `breath`: vertical stretch about the bottom row (0.01 = 1 % taller);
 * - `nod`: the head region (above the neck) moves down by this many px (negative: up);
 * - `bow`: 0–1, the upper body folds down towards the waist;
 * - `hscale`: horizontal scale about the centre (1 = none, negative = mirrored; used by `spin`);
 * - `wave`: arm angle in radians for the waving hand, or `null` when no hand is shown.
 */
export interface Pose {
  dx: number;
  dy: number;
  shear: number;
  breath: number;
  nod: number;
  bow: number;
  hscale: number;
  wave: number | null;
}

/** Names of the built-in whole-body actions; anything else plays `sway`. */
export const ACTIONS = ['wave', 'nod', 'jump', 'spin', 'bow', 'sway'] as const;
export type ActionName = (typeof ACTIONS)[number];

/** Normalises an action name (`" Wave "` → `wave`); unknown names become `sway`. */
export function actionKind(name: string): ActionName {
  const n = name.trim().toLowerCase();
  return (ACTIONS as readonly string[]).includes(n) ? (n as ActionName) : 'sway';
}

const TAU = Math.PI * 2;
const smoothstep = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/**
 * Idle motion at motion-time `phaseS` (seconds, already scaled by the style's speed) with amplitude `amount`:
 * a gentle bob (~4 s), sway (~9 s), lean (~11 s) and breathing (~4.5 s). Pure.
 */
export function idlePose(phaseS: number, amount: number): Pose {
  return {
    dx: 4 * amount * Math.sin(TAU * 0.11 * phaseS + 1.3),
    dy: 3 * amount * Math.sin(TAU * 0.23 * phaseS),
    shear: 0.012 * amount * Math.sin(TAU * 0.09 * phaseS + 0.4),
    breath: 0.007 * amount * (0.5 + 0.5 * Math.sin(TAU * 0.22 * phaseS)),
    nod: 0,
    bow: 0,
    hscale: 1,
    wave: null,
  };
}

/**
 * Adds the whole-body action `kind` at `elapsedMs` since it started (0 … {@link ACTION_MS}) to `pose`, in place.
 * Amplitudes are large on purpose (tens of px) so a viewer clearly sees them. Returns `pose`.
 */
export function applyAction(pose: Pose, kind: ActionName, elapsedMs: number): Pose {
  const p = Math.min(1, Math.max(0, elapsedMs / ACTION_MS));
  const env = Math.sin(Math.PI * p);
  switch (kind) {
    case 'wave':
      pose.wave = 0.08 + 0.2 * Math.sin(TAU * 2.5 * p);
      pose.dx -= 14 * env;
      pose.shear -= 0.03 * env;
      break;
    case 'nod':
      pose.nod += 30 * env * Math.sin(TAU * 2 * p);
      break;
    case 'jump': {
      const crouch = p < 0.15 ? Math.sin((Math.PI * p) / 0.15) : p > 0.85 ? Math.sin((Math.PI * (p - 0.85)) / 0.15) : 0;
      const air = p >= 0.15 && p <= 0.85 ? Math.sin((Math.PI * (p - 0.15)) / 0.7) : 0;
      pose.dy += 12 * crouch - 80 * air;
      pose.breath -= 0.05 * crouch;
      break;
    }
    case 'spin':
      pose.hscale *= Math.cos(TAU * smoothstep(0, 1, p));
      break;
    case 'bow':
      pose.bow = Math.max(pose.bow, smoothstep(0, 0.3, p) * (1 - smoothstep(0.7, 1, p)));
      break;
    case 'sway':
      pose.dx += 30 * env * Math.sin(TAU * 1.4 * p);
      pose.shear += 0.04 * env * Math.sin(TAU * 1.4 * p);
      break;
  }
  return pose;
}

/** Deterministic PRNG (mulberry32): returns a function giving floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Blink length, ms. */
export const BLINK_MS = 150;

/**
 * Blink schedule: a blink every 3–6 s (uniformly random, seeded), each {@link BLINK_MS} long.
 * `closedness(tMs)` is 0 (open) … 1 (closed); time must not go backwards.
 */
export class BlinkSchedule {
  private next: number;
  private readonly rand: () => number;
  constructor(seed = 1, startMs = 0) {
    this.rand = prng(seed);
    this.next = startMs + 3000 + this.rand() * 3000;
  }
  /** Start time (ms) of the next blink that has not finished yet. */
  get nextBlinkMs(): number {
    return this.next;
  }
  closedness(tMs: number): number {
    while (tMs >= this.next + BLINK_MS) this.next += 3000 + this.rand() * 3000;
    if (tMs < this.next) return 0;
    return Math.sin((Math.PI * (tMs - this.next)) / BLINK_MS);
  }
}

/** Neck line (fraction of the height) above which `nod` moves the head, and the band it blends over (px). */
export const NECK_Y = Math.round(FRAME_HEIGHT * 0.56);
export const NECK_BAND = Math.round(FRAME_HEIGHT * 0.1);
/** Waist line about which `bow` folds the upper body. */
export const WAIST_Y = Math.round(FRAME_HEIGHT * 0.82);
