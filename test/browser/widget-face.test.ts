import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BASE_ARGS } from '../../scripts/chromium.mjs';
import { writeResult } from '../setup/results';
import { launchEngine, MEDIA_ENGINES, type TestPage } from './driver';
import { ensureStorybookBuilt, serveStorybook } from './storybook';

/**
 * Issue 38: the drop-in widget as an avatar experience, in real browsers, from the Widget/States stories (the real
 * session engine over the fake proxy, the avatar's video a real track drawn on a canvas, with a mouth):
 * - Chromium and Firefox: keyboard focus never lands on the video (nor on Firefox's "Pop out this video" toggle),
 *   Tab from End goes on to Minimize (not pulled back), the controls come in order, Escape minimizes;
 * - text over the video measured from pixels, in both themes (axe cannot see video): each text against every pixel
 *   of the background behind it, the text made transparent for the second shot;
 * - captions show the end of a long reply and sit below the avatar's mouth, at 360 and 1280 px;
 * - 44 px controls on a touch screen.
 * Builds storybook-static/ first unless LIVEAI_STORYBOOK_PREBUILT=1.
 */
ensureStorybookBuilt();
let storybook: Awaited<ReturnType<typeof serveStorybook>> | undefined;
let base = '';

beforeAll(async () => {
  storybook = await serveStorybook();
  base = storybook.url;
});
afterAll(() => storybook?.close());

/**
 * Hooks Storybook's preview channel before the preview creates it: `window.__played` becomes `finished` once the story's
 * play function has run to its end, or `failed` when it threw.
 */
const PLAYED = `(() => {
  let ch;
  Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', { configurable: true, get: () => ch, set: (v) => {
    ch = v;
    v.on('storyFinished', (e) => (window.__played = e.status === 'success' ? 'finished' : 'failed'));
    v.on('playFunctionThrewException', () => (window.__played = 'failed'));
  } });
})();`;

const story = (id: string, globals = 'theme:light') => `${base}/iframe.html?id=widget-states--${id}&viewMode=story&globals=${globals}`;

/** What has focus, as a visitor would name it; `video` when it is the video or inside it. */
const focusedName = (page: TestPage) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return 'page';
    if (el.closest('video') || el.tagName === 'VIDEO') return 'video';
    return el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
  });

describe.each(MEDIA_ENGINES)('the widget by keyboard in %s', (engine) => {
  it('Tab from End goes on to Minimize, then through the controls in order, never to the video; Escape minimizes', async () => {
    const browser = await launchEngine(engine);
    try {
      const page = await browser.newPage();
      await page.goto(story('speaking'));
      await page.waitForFunction(() => document.querySelector('[data-has-video][data-agent-state="speaking"]'));
      // From End (the last control) forward: out of the widget and round to its first control, not pulled back.
      await page.byRole('button', 'End').press('Tab');
      const after: string[] = [];
      for (let i = 0; i < 6 && after.at(-1) !== 'Minimize'; i++) {
        after.push(await focusedName(page));
        if (after.at(-1) !== 'Minimize') await page.press('Tab');
      }
      expect(after.at(-1), `focus after End: ${after.join(' → ')}`).toBe('Minimize');
      expect(after).not.toContain('Microphone');
      // Forward from Minimize: the call's controls, in order, and nothing else (no video, no pop-out toggle).
      const order: string[] = [];
      for (let i = 0; i < 5; i++) {
        await page.press('Tab');
        order.push(await focusedName(page));
      }
      expect(order).toEqual(['Microphone', 'Chat', 'More options', 'End', expect.not.stringMatching(/^video$/)]);
      expect(
        await page.evaluate(() => [...document.querySelectorAll('video')].map((v) => [v.tabIndex, v.disablePictureInPicture, v.inert])),
      ).toEqual([[-1, true, true]]);
      // Escape minimizes the floating panel; focus goes to the launcher.
      await page.byRole('button', 'End').press('Escape');
      await page.waitForFunction(() => document.activeElement?.classList.contains('liveai-launcher'));
      expect(await page.evaluate(() => document.querySelector('.liveai-widget')?.getAttribute('data-state'))).toBe('minimized');
    } finally {
      await browser.close();
    }
  });
});

describe('the widget over video, measured from pixels (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_BASE_ARGS });
  });
  afterAll(() => browser?.close());

  /** The story `id`, once its play function has finished (what it opens is open; nothing it does is still to come). */
  const open = async (id: string, width: number, height: number, theme = 'light', touch = false) => {
    const ctx = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', hasTouch: touch, isMobile: touch });
    await ctx.addInitScript(PLAYED);
    const page = await ctx.newPage();
    await page.goto(story(id, `theme:${theme}`));
    const outcome = await page.waitForFunction(() => (window as unknown as { __played?: string }).__played, null, { timeout: 30_000 });
    expect(await outcome.jsonValue(), `the play function of ${id}`).toBe('finished');
    return page;
  };
  const live = (page: Page) => page.waitForSelector('[data-has-video][data-agent-state]', { timeout: 15_000 });

  /**
   * The lowest WCAG contrast between `selector`'s text colour and any pixel behind its text: a shot of the text's
   * area as drawn, then one with the text made transparent (the background alone); the text must have been drawn (the shots
   * differ). The pixels are read in the page (a canvas), so no image library is needed.
   */
  async function textContrast(page: Page, selector: string): Promise<number> {
    const el = page.locator(selector).first();
    await el.waitFor();
    // The area of the text itself (its line boxes), within the element's box (a caption clips its older words).
    const clip = await el.evaluate((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      const t = range.getBoundingClientRect();
      const b = e.getBoundingClientRect();
      const [x, y] = [Math.max(t.left, b.left), Math.max(t.top, b.top)];
      const [right, bottom] = [Math.min(t.right, b.right), Math.min(t.bottom, b.bottom)];
      return { x: Math.ceil(x), y: Math.ceil(y), width: Math.floor(right - Math.ceil(x)), height: Math.floor(bottom - Math.ceil(y)) };
    });
    const color = await el.evaluate((e) =>
      getComputedStyle(e)
        .color.match(/[\d.]+/g)!
        .slice(0, 3)
        .map(Number),
    );
    const drawn = (await page.screenshot({ clip })).toString('base64');
    const paint = (e: Element, text: string | null) => {
      for (const n of [e, ...e.querySelectorAll('*')] as HTMLElement[]) {
        if (text === null) n.style.removeProperty('color');
        else n.style.setProperty('color', text, 'important');
        if (text === null) n.style.removeProperty('text-shadow');
        else n.style.setProperty('text-shadow', 'none', 'important');
      }
    };
    await el.evaluate(paint, 'transparent');
    const behind = (await page.screenshot({ clip })).toString('base64');
    await el.evaluate(paint, null);
    const { worst, changed } = await page.evaluate(
      async ([a, b, c]) => {
        const read = async (png: string) => {
          const img = new Image();
          img.src = `data:image/png;base64,${png}`;
          await img.decode();
          const canvas = Object.assign(document.createElement('canvas'), { width: img.width, height: img.height });
          const ctx = canvas.getContext('2d')!;
          ctx.drawImage(img, 0, 0);
          return ctx.getImageData(0, 0, img.width, img.height).data;
        };
        const lum = (rgb: ArrayLike<number>) => {
          const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * f(rgb[0]!) + 0.7152 * f(rgb[1]!) + 0.0722 * f(rgb[2]!);
        };
        const ratio = (x: number, y: number) => (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
        const [d, k] = [await read(a), await read(b)];
        const text = lum(c);
        let low = Infinity;
        let diff = 0;
        for (let i = 0; i < k.length; i += 4) {
          if (Math.abs(d[i]! - k[i]!) + Math.abs(d[i + 1]! - k[i + 1]!) + Math.abs(d[i + 2]! - k[i + 2]!) > 30) diff++;
          // Icons in the text's colour (currentColor) went transparent too: every pixel here is background.
          low = Math.min(low, ratio(text, lum([k[i]!, k[i + 1]!, k[i + 2]!])));
        }
        return { worst: low, changed: diff };
      },
      [drawn, behind, color] as [string, string, number[]],
    );
    expect(changed, `${selector}: its text is drawn`).toBeGreaterThan(10);
    return worst;
  }

  const TEXT_OVER_VIDEO: [story: string, selectors: string[]][] = [
    ['speaking', ['.liveai-widget__title', '.liveai-stage__state', '.liveai-captions__line']],
    ['listening', ['.liveai-stage__state']],
    // Keyed: no scrim band over the picture; the name sits on its own pill over whatever the page shows.
    ['speaking-keyed', ['.liveai-widget__title', '.liveai-stage__state', '.liveai-captions__line']],
    ['waiting', ['.liveai-queue__headline', '.liveai-queue__time']],
    ['waiting-long', ['.liveai-queue__time']],
    ['ended', ['.liveai-stage__message .liveai-stage__title']],
    ['error-dead-end', ['.liveai-stage__message .liveai-stage__title', '.liveai-stage__message p:last-child']],
  ];
  /** Each measured ratio (":1"), for a person to read: test-results/widget-face/contrast.json (never printed). */
  const contrast: Record<string, number> = {};
  afterAll(() => {
    if (Object.keys(contrast).length) writeResult('widget-face/contrast.json', contrast);
  });
  for (const theme of ['light', 'dark'])
    for (const [id, selectors] of TEXT_OVER_VIDEO)
      it(`${theme}, ${id}: text over the video reaches 4.5:1 against every pixel behind it`, async () => {
        const page = await open(id, 360, 740, theme);
        try {
          if (['speaking', 'listening', 'speaking-keyed'].includes(id)) await live(page);
          for (const selector of selectors) {
            const ratio = await textContrast(page, selector);
            contrast[`${theme} ${id} ${selector}`] = Number(ratio.toFixed(2));
            expect(ratio, selector).toBeGreaterThanOrEqual(4.5);
          }
        } finally {
          await page.context().close();
        }
      });

  it.each([
    [360, 740],
    [1280, 860],
  ])('at %i px the captions show the end of a long reply, below the mouth and above the controls', async (width, height) => {
    const page = await open('speaking', width, height);
    try {
      await live(page);
      // Captions follow the avatar's voice: wait until the reply has grown past the caption's three lines.
      await page.waitForSelector('.liveai-captions__line[data-rolled]', { timeout: 30_000 });
      const geometry = await page.evaluate(() => {
        const video = document.querySelector('.liveai-stage__video')!.getBoundingClientRect();
        // The fake avatar's mouth: an ellipse at (184, 310) of the 368×560 picture, up to 10 px tall; object-fit: cover.
        const scale = Math.max(video.width / 368, video.height / 560);
        const mouthBottom = video.top + (video.height - 560 * scale) / 2 + 320 * scale;
        const line = document.querySelector('.liveai-captions__line')!;
        const box = line.getBoundingClientRect();
        const text = line.querySelector('bdi')!.firstChild!;
        const end = document.createRange();
        end.setStart(text, text.textContent!.length - 5);
        end.setEnd(text, text.textContent!.length);
        const last = end.getBoundingClientRect();
        const controls = document.querySelector('.liveai-widget__controls')!.getBoundingClientRect();
        return {
          mouthBottom,
          top: box.top,
          bottom: box.bottom,
          lastTop: last.top,
          lastBottom: last.bottom,
          controlsTop: controls.top,
          rolled: line.hasAttribute('data-rolled'),
        };
      });
      expect(geometry.top).toBeGreaterThan(geometry.mouthBottom);
      expect(geometry.bottom).toBeLessThanOrEqual(geometry.controlsTop);
      // The reply's last word is inside the caption's visible box: the end shows, the start rolled away (and a fade
      // at the top says so).
      expect(geometry.rolled).toBe(true);
      expect(geometry.lastTop).toBeGreaterThanOrEqual(geometry.top);
      expect(geometry.lastBottom).toBeLessThanOrEqual(geometry.bottom + 1);
    } finally {
      await page.context().close();
    }
  });

  it.each([
    [360, 740],
    [1280, 860],
  ])(
    'at %i px the pre-join step floats over the avatar: its face shows, the check sits below the mouth, flush with the bottom',
    async (width, height) => {
      const page = await open('pre-join', width, height);
      try {
        const geometry = await page.evaluate(() => {
          const stage = document.querySelector('.liveai-stage')!;
          const poster = stage.querySelector<HTMLImageElement>('.liveai-stage__poster')!;
          const box = poster.getBoundingClientRect();
          // The portrait's mouth: (184, 310) of the 368×560 picture, up to 10 px tall; object-fit: cover.
          const scale = Math.max(box.width / 368, box.height / 560);
          const check = document.querySelector('.liveai-prejoin')!.getBoundingClientRect();
          return {
            posterShown: poster.complete && poster.naturalWidth > 0 && getComputedStyle(poster).visibility !== 'hidden',
            inStage: stage.contains(document.querySelector('.liveai-prejoin')),
            mouthBottom: box.top + (box.height - 560 * scale) / 2 + 320 * scale,
            checkTop: check.top,
            checkBottom: check.bottom,
            stageBottom: stage.getBoundingClientRect().bottom,
            start: !!stage.querySelector('.liveai-stage__overlay button'),
          };
        });
        expect(geometry).toMatchObject({ posterShown: true, inStage: true, start: false });
        expect(geometry.checkTop).toBeGreaterThan(geometry.mouthBottom);
        expect(geometry.checkBottom).toBeLessThanOrEqual(geometry.stageBottom);
        // Flush with the picture's bottom: no thin strip of the stage shows under the check.
        expect(geometry.stageBottom - geometry.checkBottom).toBeLessThan(1);
        expect(await page.getByRole('button', { name: 'Join call' }).isEnabled()).toBe(true);
      } finally {
        await page.context().close();
      }
    },
  );

  it('on a touch screen every control over the video is at least 44 px', async () => {
    const page = await open('more-options', 360, 740, 'light', true);
    try {
      await live(page);
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
      // The story's play function opened "More options" (and waited for its items) before `open` returned.
      expect(await page.locator('.liveai-menu [data-control="keep-alive"]').count()).toBe(1);
      const sizes = await page.evaluate(() =>
        [...document.querySelectorAll('.liveai-widget button, .liveai-widget select, .liveai-widget input')].map((e) => {
          const r = e.getBoundingClientRect();
          return { what: e.getAttribute('aria-label') ?? e.textContent?.trim() ?? e.tagName, w: r.width, h: r.height };
        }),
      );
      expect(sizes.length).toBeGreaterThanOrEqual(8);
      for (const s of sizes) expect(Math.min(s.w, s.h), s.what).toBeGreaterThanOrEqual(44);
    } finally {
      await page.context().close();
    }
  });

  it('on a touch screen "Stop talking" (while the avatar speaks) is at least 44 px and covers no other control', async () => {
    const page = await open('speaking-stop', 360, 740, 'light', true);
    try {
      await live(page);
      const boxes = await page.evaluate(() =>
        [...document.querySelectorAll('.liveai-widget button')].map((e) => {
          const r = e.getBoundingClientRect();
          return { what: e.textContent?.trim() || e.getAttribute('aria-label'), x: r.x, y: r.y, w: r.width, h: r.height };
        }),
      );
      const stop = boxes.find((b) => b.what === 'Stop talking')!;
      expect(stop, 'Stop talking shows while the avatar speaks').toBeDefined();
      expect(Math.min(stop.w, stop.h)).toBeGreaterThanOrEqual(44);
      for (const b of boxes.filter((o) => o !== stop)) {
        const apart = b.x >= stop.x + stop.w || stop.x >= b.x + b.w || b.y >= stop.y + stop.h || stop.y >= b.y + b.h;
        expect(apart, `Stop talking overlaps ${b.what}`).toBe(true);
      }
    } finally {
      await page.context().close();
    }
  });
});
