import {
  composeChangedRows,
  composeFrame,
  type DirtyRows,
  dirtyRowsOf,
  isUnscaled,
  layoutRows,
  newRowLayout,
  type RowLayout,
} from './compose';
import { easeStyle, NEUTRAL_STYLE, stylesFromDemeanour, type Style } from './demeanour';
import { ACTION_MS } from './face';
import { cloneI420, type I420Image, newI420 } from './i420';
import { actionKind, applyAction, BlinkSchedule, idlePose, type ActionName } from './motion';
import { drawEyelids, drawMouth, drawWavingArm, overlayRects, restoreRect, type Rect } from './overlays';
import type { Portrait } from './portrait';
import type { Demeanour } from './types';

/**
 * The image being animated: the pristine portrait, a working copy the overlays draw on, the overlay areas and the
 * rows they span (the only rows of `work` that change from frame to frame).
 */
interface Scene {
  portrait: Portrait;
  work: I420Image;
  rects: Rect[];
  dirty: DirtyRows;
}

/** How long after the last voiced audio the avatar still counts as speaking (demeanour), ms. */
const SPEAKING_HOLD_MS = 600;

/**
 * Renders the synthetic avatar frame by frame into one reused I420 picture (`frame`, 368×560; `frame.data` is what
 * the video source takes, so no colour conversion happens per frame). Per frame it redraws only the eye and mouth
 * regions, then moves whole rows (see `composeFrame`), and of those only the rows that can differ from the frame
 * already in the buffer: rows whose mapping moved, and the rows of the eyes and mouth (see `composeChangedRows`);
 * after a frame drawn over (the waving arm) or resampled (`spin`), or a new portrait, every row. No per-pixel pass
 * over the frame except during `spin`. Deterministic for a given seed and sequence of calls; `incremental: false`
 * copies every row of every frame (the same frames; for tests).
 */
export class AvatarRenderer {
  readonly frame: I420Image;
  private scene: Scene;
  /** This frame's row mapping and the previous frame's (swapped each frame). */
  private layout: RowLayout;
  private prevLayout: RowLayout;
  /** True when `frame` holds exactly the rows of `prevLayout` over the current scene (nothing drawn over them). */
  private frameIsRows = false;
  private readonly incremental: boolean;
  private readonly cols: Int32Array;
  private readonly blink: BlinkSchedule;
  private styles = { idle: NEUTRAL_STYLE, speaking: NEUTRAL_STYLE };
  private readonly style: Style = { ...NEUTRAL_STYLE };
  private action: { kind: ActionName; startMs: number } | null = null;
  private mouth = 0;
  private lastVoicedMs = -Infinity;
  private lastMs: number | null = null;
  private phaseS = 0;

  constructor(portrait: Portrait, seed = 1, { incremental = true }: { incremental?: boolean } = {}) {
    this.scene = AvatarRenderer.scene(portrait);
    this.incremental = incremental;
    this.layout = newRowLayout(portrait.height);
    this.prevLayout = newRowLayout(portrait.height);
    this.cols = new Int32Array(portrait.width * 1.5);
    this.frame = newI420(portrait.width, portrait.height);
    this.blink = new BlinkSchedule(seed);
  }

  private static scene(portrait: Portrait): Scene {
    const rects = overlayRects(portrait.geometry);
    return { portrait, work: cloneI420(portrait), rects, dirty: dirtyRowsOf(rects, portrait.height) };
  }

  /** Swaps the reference image at once (same 368×560 size); the next frame shows it. */
  setPortrait(portrait: Portrait): void {
    this.scene = AvatarRenderer.scene(portrait);
    this.frameIsRows = false;
  }

  /** Sets the prompts that shape idle/speaking style (see `demeanour.ts`); changes ease in over ~0.5 s. */
  setDemeanour(d: Demeanour): void {
    this.styles = stylesFromDemeanour(d);
  }

  /** Starts a whole-body action at `nowMs` (replacing a running one); unknown names play `sway`. */
  playAction(name: string, nowMs: number): void {
    this.action = { kind: actionKind(name), startMs: nowMs };
  }

  /** True while an action is playing at `nowMs`. */
  actionActive(nowMs: number): boolean {
    return this.action !== null && nowMs - this.action.startMs < ACTION_MS;
  }

  /**
   * Renders the frame at `nowMs` (monotonic ms) with the speech level `level` (0 silent … 1 loud, the envelope of
   * the audio playing now) and returns {@link frame} (the same buffer every call).
   */
  render(nowMs: number, level: number): I420Image {
    const dt = this.lastMs === null ? 0 : Math.min(0.2, Math.max(0, (nowMs - this.lastMs) / 1000));
    this.lastMs = nowMs;
    if (level > 0.05) this.lastVoicedMs = nowMs;
    const speaking = nowMs - this.lastVoicedMs < SPEAKING_HOLD_MS;
    easeStyle(this.style, speaking ? this.styles.speaking : this.styles.idle, Math.min(1, dt * 4));
    this.phaseS += dt * this.style.speed;
    const target = Math.max(0, Math.min(1, level));
    this.mouth += (target - this.mouth) * (target > this.mouth ? 0.75 : 0.45);

    const { portrait, work, rects, dirty } = this.scene;
    for (const r of rects) restoreRect(work, portrait, r);
    drawEyelids(work, portrait.geometry, portrait.lids, this.blink.closedness(nowMs));
    drawMouth(work, portrait.geometry, portrait.lip, this.mouth, this.style.smile);

    const pose = idlePose(this.phaseS, this.style.amount);
    if (this.action && this.actionActive(nowMs)) applyAction(pose, this.action.kind, nowMs - this.action.startMs);
    else this.action = null;
    [this.layout, this.prevLayout] = [this.prevLayout, this.layout];
    layoutRows(pose, work.height, work.margin, this.layout);
    const unscaled = isUnscaled(pose.hscale);
    if (unscaled && this.frameIsRows && this.incremental) composeChangedRows(work, this.layout, this.prevLayout, dirty, this.frame);
    else composeFrame(work, this.layout, pose.hscale, this.frame, this.cols);
    this.frameIsRows = unscaled && pose.wave === null;
    if (pose.wave !== null) drawWavingArm(this.frame, pose.wave, portrait.skin);
    return this.frame;
  }
}
