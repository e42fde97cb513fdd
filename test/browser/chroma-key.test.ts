import { mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MEDIA_ENGINES, type EngineContext, type TestPage } from './driver';
import { useEngineStack } from './harness';

/**
 * `chromaKey` in real Chromium and Firefox on a real LiveKit room: the local avatar is swapped to a portrait on a solid
 * backdrop, and the stage, screenshotted over a transparent page, shows the page through the backdrop and keeps the
 * face and shirt. WebGL (drawn here in software: SwiftShader in Chromium, llvmpipe in Firefox) and the 2D canvas a browser without
 * WebGL gets.
 */
type Probe = { events: string[]; errors: unknown[] };

/** Alpha (0–255) and RGB of the stage's screenshot at points given as fractions of its width and height. */
async function stagePixels(page: TestPage, points: [number, number][], shot?: string) {
  const SHOTS = `test-results/chroma-key/${page.engine}`;
  const png = await page.screenshot({ selector: '.liveai-stage', omitBackground: true, ...(shot ? { path: `${SHOTS}/${shot}.png` } : {}) });
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return points.map(([fx, fy]) => {
    const i = (Math.floor(fy * (info.height - 1)) * info.width + Math.floor(fx * (info.width - 1))) * 4;
    return { rgb: [data[i]!, data[i + 1]!, data[i + 2]!], alpha: data[i + 3]! };
  });
}
/** The backdrop beside the head, where no control or text is. */
const BACKDROP: [number, number][] = [
  [0.04, 0.3],
  [0.96, 0.3],
  [0.04, 0.55],
  [0.96, 0.55],
];
/**
 * The backdrop in the bands the name (top) and the controls (bottom) sit in, between their own backings, and at the
 * stage's very edge: nothing may paint a scrim or a ring there over a keyed avatar. (Checked once keyed only: the
 * built-in avatar's lower corner is lavender, which a magenta key partly removes.)
 */
const BANDS: [number, number][] = [
  [0.6, 0.04],
  [0.02, 0.97],
  [0, 0.45],
];
const FACE: [number, number] = [0.5, 0.42];
const SHIRT: [number, number] = [0.5, 0.97];

async function keyedCall(baseUrl: string, context: EngineContext, query: string, backdrop: string, expectMode: string, shot: string) {
  const page = await context.newPage();
  mkdirSync(`test-results/chroma-key/${page.engine}`, { recursive: true });
  const { pageErrors } = page;
  await page.goto(`${baseUrl}/test/browser/pages/chroma-key.html${query}`);
  // Before the call the stage looks as usual (its own background); the page shows through only the keyed video.
  const stageBackground = () => page.evaluate(() => getComputedStyle(document.querySelector('.liveai-stage')!).backgroundColor);
  expect(await stageBackground()).not.toBe('rgba(0, 0, 0, 0)');
  await page.byRole('button', 'Start call').click();
  await expect
    .poll(() => page.evaluate(() => document.querySelector('.liveai-stage[data-has-video]')?.getAttribute('data-chroma-key') ?? null), {
      timeout: 30_000,
    })
    .toBe(expectMode);
  expect(await stageBackground()).toBe('rgba(0, 0, 0, 0)');
  // The keyed picture fades in (a CSS opacity transition): read pixels once it is fully in.
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.querySelector('.liveai-stage__canvas')!).opacity), { timeout: 5_000 })
    .toBe('1');

  // The built-in avatar stands on a gradient, not the key colour: nothing is removed.
  const before = await stagePixels(page, [...BACKDROP, FACE], `${shot}-before`);
  for (const p of before) expect(p.alpha).toBeGreaterThan(240);

  await page.evaluate((c) => (window as unknown as { __chroma: { swapTo(c: string): Promise<void> } }).__chroma.swapTo(c), backdrop);
  await page.waitForFunction(() => (window as unknown as { __chroma: Probe }).__chroma.events.includes('image_change_complete'), 15_000);
  // The new portrait reaches the video a few frames after the event: the backdrop turns transparent.
  let last: Awaited<ReturnType<typeof stagePixels>> = [];
  await expect
    .poll(async () => (last = await stagePixels(page, [...BACKDROP, ...BANDS])).every((p) => p.alpha < 16), {
      timeout: 15_000,
      interval: 200,
    })
    .toBe(true)
    .catch((e: unknown) => {
      throw new Error(`backdrop not transparent: ${JSON.stringify(last)}`, { cause: e });
    });
  const [face, shirt] = await stagePixels(page, [FACE, SHIRT], `${shot}-keyed`);
  expect(face!.alpha).toBeGreaterThan(240);
  expect(shirt!.alpha).toBeGreaterThan(240);
  // The face keeps its colour (skin is far from the key; spill removal leaves it alone).
  expect(face!.rgb[0]).toBeGreaterThan(face!.rgb[2]! + 40);
  if (expectMode === 'webgl') {
    // The GPU context is lost (a GPU reset would do this), then restored: keying resumes by itself.
    await page.evaluate(() => {
      const gl = document.querySelector<HTMLCanvasElement>('canvas.liveai-stage__canvas')!.getContext('webgl')!;
      const ext = gl.getExtension('WEBGL_lose_context')!;
      (window as unknown as { __restore: () => void }).__restore = () => ext.restoreContext();
      ext.loseContext();
    });
    await expect.poll(async () => (await stagePixels(page, [FACE]))[0]!.alpha, { timeout: 10_000 }).toBeLessThan(16);
    await page.evaluate(() => (window as unknown as { __restore: () => void }).__restore());
    await expect
      .poll(
        async () => {
          const [f, ...b] = await stagePixels(page, [FACE, ...BACKDROP, ...BANDS]);
          return f!.alpha > 240 && b.every((p) => p.alpha < 16);
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
  }
  // For people to look at: the keyed avatar over a striped page.
  await page.evaluate(() => (document.body.style.background = 'repeating-linear-gradient(45deg, #fde68a 0 24px, #93c5fd 24px 48px)'));
  await page.screenshot({ selector: '.liveai-widget', path: `test-results/chroma-key/${page.engine}/${shot}-over-a-page.png` });
  expect(await page.evaluate(() => (window as unknown as { __chroma: Probe }).__chroma.errors)).toEqual([]);
  expect(pageErrors).toEqual([]);
  await page.byRole('button', /^End/).click();
  await page.close();
}

describe.each(MEDIA_ENGINES)('chroma key (transparent avatar backdrop) in %s', (engine) => {
  const env = useEngineStack(engine, { queueMs: 0, imageChangeMs: 0 });

  it('WebGL: a green backdrop becomes transparent, the face and shirt stay, also after the GPU context is lost and restored', async () => {
    await keyedCall(env.stack.baseUrl, env.browser, '', '#00ff00', 'webgl', 'webgl');
  });

  it('a browser without WebGL keys on a 2D canvas, here a magenta backdrop (?color=#ff00ff)', async () => {
    const context = await env.browser.newContext(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
        return /webgl/.test(kind) ? null : (original as (...a: unknown[]) => unknown).call(this, kind, ...rest);
      } as typeof original;
    });
    try {
      await keyedCall(env.stack.baseUrl, context, `?color=${encodeURIComponent('#ff00ff')}`, '#ff00ff', '2d', '2d');
    } finally {
      await context.close();
    }
  });
});
