import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BASE_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { FAMILIES, buildCss, familyFile } from '../../scripts/build-css.mjs';
import { ensureStorybookBuilt, serveStorybook } from './storybook';

/**
 * The stylesheet per component family: a page with the drop-in widget that loads only `liveai-kit/styles/base.css`
 * and `liveai-kit/styles/widget.css` (plus `images.css` for "Change look", `meters.css` and `devices.css` for the
 * pre-join step) shows every state of the widget exactly as with `liveai-kit/styles.css`: every element (and its
 * ::before and ::after) has the same computed style, in both themes, at 360 and 1280 px. The states are the
 * "Widget/States" stories (the contact sheet's), from storybook-static/ (built first unless
 * LIVEAI_STORYBOOK_PREBUILT=1); the page's own stylesheets are swapped for the ones built from the sources.
 */
const ROOT = resolve(__dirname, '../..');
ensureStorybookBuilt();

const css = Object.fromEntries(FAMILIES.map((f) => [f, buildCss(familyFile(f))]));
const everything = buildCss(join(ROOT, 'src/components/styles/index.css'));
/** The Storybook canvas's own page styles (its background follows the theme), kept in both runs. */
const page = readFileSync(join(ROOT, '.storybook/preview.css'), 'utf8');
/** Transitions and animations off, so a value read mid-transition does not count as a difference. */
const STILL = '*,*::before,*::after{transition:none!important;animation:none!important}';

/** Every state of the widget, with the family files it needs beyond base.css and widget.css. */
const STATES: [string, string[]][] = [
  ['launcher', []],
  ['idle', []],
  ['idle-inline', []],
  ['pre-join', ['meters', 'devices']],
  ['waiting', []],
  ['waiting-long', []],
  ['listening', []],
  ['thinking', []],
  ['speaking', []],
  ['speaking-stop', []],
  ['speaking-keyed', []],
  ['chat-open', []],
  ['mic-blocked', []],
  ['more-options', []],
  ['change-look', ['images']],
  ['sound-blocked', []],
  ['minimized-in-call', []],
  ['ended', []],
  ['error-retry', []],
  ['error-dead-end', []],
];

const HOOK = `(() => {
  let ch; window.__lai = { finished: null };
  Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', { configurable: true, get: () => ch, set: (v) => {
    ch = v;
    v.on('storyFinished', (e) => (window.__lai.finished = e));
  } });
})();`;

let storybook: Awaited<ReturnType<typeof serveStorybook>> | undefined;
let base = '';
let browser: Browser;

beforeAll(async () => {
  storybook = await serveStorybook();
  base = storybook.url;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_BASE_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await storybook?.close();
});

/**
 * Puts `text` in place of every stylesheet of the page and keeps, as `window.__laiSnap[name]`, the computed style of
 * everything in the story (custom properties set inline, such as a voice meter's levels, left out: they move all the
 * time); returns what is on the page, without inline styles.
 */
async function styledWith(p: Page, name: string, text: string): Promise<string> {
  return p.evaluate(
    ([snap, cssText]) => {
      for (const sheet of document.styleSheets) if ((sheet.ownerNode as Element | null)?.id !== 'lai-css') sheet.disabled = true;
      let el = document.getElementById('lai-css');
      if (!el) {
        el = document.createElement('style');
        el.id = 'lai-css';
        document.head.append(el);
      }
      el.textContent = cssText;
      const root = document.getElementById('storybook-root')!;
      const styles: Record<string, Record<string, string>> = {};
      const walk = (node: Element, path: string) => {
        const inline = (node as HTMLElement).style;
        for (const pseudo of ['', '::before', '::after']) {
          const cs = getComputedStyle(node, pseudo || null);
          if (pseudo && cs.content === 'none') continue;
          const props: Record<string, string> = {};
          for (let i = 0; i < cs.length; i++) {
            const prop = cs[i]!;
            if (!(prop.startsWith('--') && inline?.getPropertyValue(prop))) props[prop] = cs.getPropertyValue(prop);
          }
          styles[path + pseudo] = props;
        }
        [...node.children].forEach((child, i) => walk(child, `${path}>${child.tagName.toLowerCase()}:${i}`));
      };
      walk(root, 'root');
      const w = window as unknown as { __laiSnap?: Record<string, typeof styles> };
      (w.__laiSnap ??= {})[snap] = styles;
      return root.innerHTML.replace(/ style="[^"]*"/g, '');
    },
    [name, text] as const,
  );
}

/**
 * The properties whose value differs between the two stylesheets, per element. Read three times (all, families, all
 * again) until the page holds still; a value that moved between the two reads with everything (a caption revealed
 * word by word, a meter following the voice) is not a difference of the stylesheets.
 */
async function differences(p: Page, families: string): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const a = await styledWith(p, 'a', page + everything + STILL);
    const b = await styledWith(p, 'b', page + families + STILL);
    const again = await styledWith(p, 'again', page + everything + STILL);
    if ((a !== b || a !== again) && attempt < 20) {
      await p.waitForTimeout(250);
      continue;
    }
    expect(b, 'the same elements with either stylesheet').toBe(a);
    return p.evaluate(() => {
      const {
        a: all,
        b: fam,
        again: twice,
      } = (window as unknown as { __laiSnap: Record<string, Record<string, Record<string, string>>> }).__laiSnap;
      const out: string[] = [];
      for (const [path, props] of Object.entries(all!)) {
        for (const [prop, value] of Object.entries(props)) {
          if (twice![path]?.[prop] !== value) continue;
          const got = fam![path]?.[prop];
          if (got !== value) out.push(`${path} ${prop}: ${value} with styles.css, ${got} with the family files`);
        }
      }
      return out;
    });
  }
}

describe('a widget page with only its family stylesheets', () => {
  it("widget.css carries none of the session list's, usage view's, meters', pre-join's or image swapper's styles", () => {
    for (const cls of [
      'liveai-sessions',
      'liveai-table',
      'liveai-usage',
      'liveai-bars',
      'liveai-quality',
      'liveai-prejoin',
      'liveai-images__zone',
    ])
      expect(css.widget, cls).not.toContain(`.${cls}`);
    // styles.css is every family, in the order their files load.
    expect(FAMILIES).toEqual(['base', 'widget', 'images', 'meters', 'devices', 'admin']);
  });

  for (const width of [360, 1280]) {
    for (const theme of ['light', 'dark']) {
      it(`looks as with styles.css in every state, ${width} px, ${theme}`, async () => {
        const ctx = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 860 }, reducedMotion: 'reduce' });
        await ctx.addInitScript(HOOK);
        const p = await ctx.newPage();
        try {
          const found: string[] = [];
          for (const [state, extra] of STATES) {
            await p.goto(`${base}/iframe.html?id=widget-states--${state}&viewMode=story&globals=theme:${theme}`);
            await p.waitForFunction(() => (window as unknown as { __lai: { finished: unknown } }).__lai.finished, null, {
              timeout: 30_000,
            });
            await p.evaluate(() => document.fonts.ready);
            const families = ['base', 'widget', ...FAMILIES.filter((f) => extra.includes(f))].map((f) => css[f]).join('\n');
            for (const d of await differences(p, families)) found.push(`${state}: ${d}`);
          }
          expect(found.slice(0, 40)).toEqual([]);
        } finally {
          await ctx.close();
        }
      });
    }
  }
});
