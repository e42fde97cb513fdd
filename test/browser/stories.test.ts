import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BASE_ARGS } from '../../scripts/chromium.mjs';
import { STORYBOOK_STATIC, ensureStorybookBuilt, serveStorybook } from './storybook';

/**
 * Every Storybook story in real Chromium: its play function finishes without error, the canvas is not
 * blank, axe-core finds 0 violations in both themes and both directions, and screenshots are saved for review:
 * test-results/stories/<id>.1600.png (1600 px wide, light theme, left to right) and <id>.320.png (320 px wide, dark
 * theme, right to left: the layout mirrored, the words English so the play functions find them).
 * Builds storybook-static/ first unless LIVEAI_STORYBOOK_PREBUILT=1. "Live" stories (real proxy) are skipped.
 * LIVEAI_STORIES=<text> runs only the stories whose id contains it (e.g. `avatarwidget`) while reviewing.
 */
const ROOT = resolve(__dirname, '../..');
const SHOTS = join(ROOT, 'test-results/stories');
const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

ensureStorybookBuilt();
const index = JSON.parse(readFileSync(join(STORYBOOK_STATIC, 'index.json'), 'utf8')) as {
  entries: Record<string, { id: string; type: string; title: string }>;
};
const only = process.env.LIVEAI_STORIES ?? '';
const stories = Object.values(index.entries).filter((e) => e.type === 'story' && !e.id.startsWith('live-') && e.id.includes(only));

let storybook: Awaited<ReturnType<typeof serveStorybook>> | undefined;
let base = '';
let browser: Browser;
let wide: Page;
let narrow: Page;

/** Hooks the preview channel before Storybook creates it, to see the play function's outcome. */
const HOOK = `(() => {
  let ch; window.__lai = { finished: null, errors: [], pageErrors: [] };
  Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', { configurable: true, get: () => ch, set: (v) => {
    ch = v;
    v.on('storyFinished', (e) => (window.__lai.finished = e));
    for (const n of ['playFunctionThrewException', 'storyThrewException', 'storyErrored', 'storyMissing', 'unhandledErrorsWhilePlaying'])
      v.on(n, (e) => window.__lai.errors.push({ event: n, detail: JSON.stringify(e).slice(0, 2000) }));
  } });
})();`;

type Lai = { finished: { storyId: string; status: string } | null; errors: unknown[]; pageErrors: string[] };

/**
 * Shows one story in an already loaded preview (switching through the preview channel is much faster
 * than reloading the 1 MB preview per story), waits for its play function to finish, and checks it.
 */
async function showStory(page: Page, id: string, theme: 'light' | 'dark', dir: 'ltr' | 'rtl') {
  await page.evaluate(
    ([storyId, t, d]) => {
      const w = window as unknown as { __lai: Lai; __STORYBOOK_ADDONS_CHANNEL__: { emit(e: string, p: unknown): void } };
      w.__lai.finished = null;
      w.__lai.errors = [];
      w.__lai.pageErrors = [];
      w.__STORYBOOK_ADDONS_CHANNEL__.emit('updateGlobals', { globals: { theme: t, dir: d } });
      w.__STORYBOOK_ADDONS_CHANNEL__.emit('setCurrentStory', { storyId, viewMode: 'story' });
    },
    [id, theme, dir] as const,
  );
  await page.waitForFunction((storyId) => (window as unknown as { __lai: Lai }).__lai.finished?.storyId === storyId, id, {
    timeout: 30_000,
  });
  const state = await page.evaluate(() => (window as unknown as { __lai: Lai }).__lai);
  expect(state.errors, `story errors of ${id}`).toEqual([]);
  expect(state.pageErrors, `page errors of ${id}`).toEqual([]);
  const visible = await page.evaluate(() =>
    [...document.querySelectorAll('#storybook-root *')].some((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    }),
  );
  expect(visible, `${id} renders something visible`).toBe(true);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (ctx: string, o: object) => Promise<{ violations: { id: string; nodes: { target: unknown; failureSummary: string }[] }[] }>;
        };
      }
    ).axe;
    const r = await axe.run('#storybook-root', { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary}`) }));
  });
  expect(violations, `axe violations of ${id} (${theme}, ${dir})`).toEqual([]);
  await page.screenshot({ path: join(SHOTS, theme === 'light' ? `${id}.1600.png` : `${id}.320.png`), fullPage: true });
}

/** A page with the preview loaded once, axe injected, and the channel hooked. */
async function openPreview(width: number, height: number): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
  await ctx.addInitScript(HOOK);
  const page = await ctx.newPage();
  page.on(
    'pageerror',
    (e) => void page.evaluate((m) => (window as unknown as { __lai: Lai }).__lai.pageErrors.push(m), String(e)).catch(() => undefined),
  );
  await page.goto(`${base}/iframe.html?id=${stories[0]!.id}&viewMode=story`);
  await page.waitForFunction(() => (window as unknown as { __lai: Lai }).__lai.finished, null, { timeout: 60_000 });
  await page.addScriptTag({ content: AXE });
  return page;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  storybook = await serveStorybook();
  base = storybook.url;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_BASE_ARGS,
  });
  wide = await openPreview(1600, 900);
  narrow = await openPreview(320, 720);
});

afterAll(async () => {
  await browser?.close();
  await storybook?.close();
});

describe('stories', () => {
  it('has stories', () => expect(stories.length).toBeGreaterThan(0));
  for (const story of stories) {
    it(story.id, async () => {
      await showStory(wide, story.id, 'light', 'ltr');
      await showStory(narrow, story.id, 'dark', 'rtl');
    });
  }
});
