import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { chromium, type Browser as PwBrowser, type BrowserContext as PwContext, type Page as PwPage } from 'playwright-core';
import type { Browser as PpBrowser, BrowserContext as PpContext, ElementHandle, Page as PpPage } from 'puppeteer-core';
import { CHROMIUM_ARGS } from './chromium-args';
// @ts-expect-error -- plain ESM script without types
import { launchFirefox } from '../../scripts/firefox.mjs';

/**
 * The one surface the cross-engine browser tests drive a page through: Chromium with playwright-core, Firefox
 * with puppeteer-core over WebDriver BiDi (Playwright's Firefox needs a patched build). Only what those tests
 * use; each method does the same thing in both engines, so a test's assertions are the same in both.
 */
export type Engine = 'chromium' | 'firefox';
/** The engines with WebRTC here, in the order the tests run them. */
export const MEDIA_ENGINES: Engine[] = ['chromium', 'firefox'];

export interface Control {
  click(): Promise<void>;
  /** Replaces the field's value as typing would (focus, select all, type). */
  fill(text: string): Promise<void>;
  press(key: 'Enter' | 'Tab' | 'Escape'): Promise<void>;
}

export interface Shot {
  path?: string;
  fullPage?: boolean;
  /** Only this element (CSS selector), clipped to its box. */
  selector?: string;
  /** A transparent page background where the page draws none. */
  omitBackground?: boolean;
}

export interface TestPage {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Resolves once `fn` returns a truthy value in the page; rejects after `timeout` ms (default 30 000). */
  waitForFunction(fn: () => unknown, timeout?: number): Promise<void>;
  /** The visible element of that ARIA role whose accessible name is `name` (a RegExp: matches it). */
  byRole(role: 'button' | 'textbox', name: string | RegExp): Control;
  /** Clicks the visible element whose whole text is `text` (a <summary>, a link). */
  clickText(text: string): Promise<void>;
  /** How many visible elements hold text containing `text` (or matching the RegExp), shadow roots included. */
  countText(text: string | RegExp, within?: string): Promise<number>;
  screenshot(shot?: Shot): Promise<Buffer>;
  /** Emulates the system's colour scheme (Chromium only: puppeteer-core cannot do it over WebDriver BiDi). */
  colorScheme(scheme: 'light' | 'dark'): Promise<void>;
  /** Presses a key on whatever has focus, as a visitor would (Tab moves focus on through the page). */
  press(key: 'Tab' | 'Escape' | 'Enter'): Promise<void>;
  /** Uncaught exceptions of the page, as text. */
  readonly pageErrors: string[];
  /** Every URL the page requested. */
  readonly requested: string[];
  /** Text of every console message of the page, in order. */
  readonly consoleMessages: string[];
  /** Called with each response the page received: URL, headers (JSON) and body text. */
  onResponse(fn: (r: { url: string; headers: string; body: string }) => void): void;
  close(): Promise<void>;
}

export interface EngineContext {
  newPage(): Promise<TestPage>;
  close(): Promise<void>;
}

export interface EngineBrowser extends EngineContext {
  readonly engine: Engine;
  /** A separate context (own cookies and storage) whose pages run `initScript` before any script of theirs. */
  newContext(initScript?: () => void): Promise<EngineContext>;
}

/** Collects every RTCPeerConnection of the page in `window.__pcs`, so a test can read getStats(). */
function collectPeerConnections() {
  const w = window as unknown as { __pcs: RTCPeerConnection[]; RTCPeerConnection: typeof RTCPeerConnection };
  w.__pcs = [];
  const Orig = w.RTCPeerConnection;
  if (!Orig) return;
  w.RTCPeerConnection = class extends Orig {
    constructor(config?: RTCConfiguration) {
      super(config);
      w.__pcs.push(this);
    }
  } as typeof RTCPeerConnection;
}

const VIEWPORT = { width: 900, height: 820 };

/** The page's uncaught errors, requested URLs and console lines, with the listeners both libraries' pages take. */
function pageLog() {
  const lists = { pageErrors: [] as string[], requested: [] as string[], consoleMessages: [] as string[] };
  return {
    lists,
    onError: (e: unknown) => void lists.pageErrors.push(String(e)),
    onRequest: (r: { url(): string }) => void lists.requested.push(r.url()),
    onConsole: (m: { text(): string }) => void lists.consoleMessages.push(m.text()),
  };
}

/** Launches the engine headless with a fresh profile, fake camera and microphone granted, autoplay allowed. */
export async function launchEngine(engine: Engine, options: { firefoxPrefs?: Record<string, unknown> } = {}): Promise<EngineBrowser> {
  return engine === 'chromium' ? launchChromium() : launchFirefoxEngine(options.firefoxPrefs);
}

// ---- Chromium: playwright-core ----

async function launchChromium(): Promise<EngineBrowser> {
  const browser: PwBrowser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const context = async (initScript?: () => void): Promise<EngineContext> => {
    const ctx: PwContext = await browser.newContext({ viewport: VIEWPORT });
    await ctx.grantPermissions(['camera', 'microphone']);
    await ctx.addInitScript(collectPeerConnections);
    if (initScript) await ctx.addInitScript(initScript);
    return { newPage: async () => playwrightPage(await ctx.newPage()), close: () => ctx.close() };
  };
  const main = await context();
  return { engine: 'chromium', newPage: main.newPage, newContext: context, close: () => browser.close() };
}

function playwrightPage(page: PwPage): TestPage {
  const log = pageLog();
  page.on('pageerror', log.onError);
  page.on('request', log.onRequest);
  page.on('console', log.onConsole);
  return {
    engine: 'chromium',
    ...log.lists,
    goto: async (url) => void (await page.goto(url)),
    press: (key) => page.keyboard.press(key),
    evaluate: ((fn: (a?: unknown) => unknown, arg?: unknown) => page.evaluate(fn, arg)) as TestPage['evaluate'],
    waitForFunction: async (fn, timeout = 30_000) => void (await page.waitForFunction(fn, null, { timeout })),
    byRole(role, name) {
      const l = page.getByRole(role, { name, exact: typeof name === 'string' });
      return { click: () => l.click(), fill: (t) => l.fill(t), press: (k) => l.press(k) };
    },
    clickText: (text) => page.getByText(text, { exact: true }).click(),
    countText: (text, within) => (within ? page.locator(within) : page).getByText(text).count(),
    screenshot: ({ selector, ...o } = {}) => (selector ? page.locator(selector).screenshot(o) : page.screenshot(o)),
    colorScheme: (colorScheme) => page.emulateMedia({ colorScheme }),
    onResponse(fn) {
      page.on('response', async (res) => {
        const headers = JSON.stringify(await res.allHeaders());
        fn({ url: res.url(), headers, body: await res.text().catch(() => '') });
      });
    },
    close: () => page.close(),
  };
}

// ---- Firefox: puppeteer-core over WebDriver BiDi ----

async function launchFirefoxEngine(prefs?: Record<string, unknown>): Promise<EngineBrowser> {
  // In a private Xvfb display rather than headless: headless Firefox has no WebGL (the chroma key needs it).
  const browser: PpBrowser = await launchFirefox({ prefs, xvfb: true });
  const context = (ctx: PpContext | PpBrowser, initScript?: () => void): EngineContext => ({
    async newPage() {
      const page = await ctx.newPage();
      await page.setViewport(VIEWPORT);
      await page.evaluateOnNewDocument(collectPeerConnections);
      if (initScript) await page.evaluateOnNewDocument(initScript);
      return puppeteerPage(page);
    },
    close: async () => {
      if (ctx !== browser) await (ctx as PpContext).close();
    },
  });
  const main = context(browser);
  return {
    engine: 'firefox',
    newPage: main.newPage,
    newContext: async (initScript) => context(await browser.createBrowserContext(), initScript),
    close: () => browser.close(),
  };
}

async function transparentShot(page: PpPage, shoot: () => Promise<Buffer>): Promise<Buffer> {
  const over = async (colour: string | null) => {
    await page.evaluate((c) => {
      const id = 'liveai-test-shot-background';
      document.getElementById(id)?.remove();
      if (!c) return;
      const style = Object.assign(document.createElement('style'), { id, textContent: `html, body { background: ${c} !important; }` });
      document.head.append(style);
    }, colour);
    if (!colour) return null;
    return sharp(await shoot())
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  };
  const black = (await over('#000'))!;
  const white = (await over('#fff'))!;
  await over(null);
  const { width, height } = black.info;
  const out = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height * 3; i += 3, j += 4) {
    const diff = (white.data[i]! - black.data[i]! + white.data[i + 1]! - black.data[i + 1]! + white.data[i + 2]! - black.data[i + 2]!) / 3;
    const alpha = Math.max(0, Math.min(255, Math.round(255 - diff)));
    for (let k = 0; k < 3; k++) out[j + k] = alpha === 0 ? 0 : Math.min(255, Math.round((black.data[i + k]! * 255) / alpha));
    out[j + 3] = alpha;
  }
  return sharp(out, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * The page's visible elements of an ARIA role with their accessible names, in document order (light DOM): the
 * name is aria-label, else the text of aria-labelledby, else a <label>'s text, else the element's own text.
 */
function namedElements(role: string): [Element, string][] {
  const sel =
    role === 'button'
      ? 'button, [role="button"], input[type="button"], input[type="submit"]'
      : 'input:not([type]), input[type="text"], input[type="search"], input[type="url"], input[type="email"], textarea, [role="textbox"]';
  const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const nameOf = (el: Element): string => {
    const label = el.getAttribute('aria-label');
    if (label) return label.trim();
    const by = el.getAttribute('aria-labelledby');
    if (by)
      return by
        .split(/\s+/)
        .map((id) => text(document.getElementById(id)))
        .join(' ')
        .trim();
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return text(labels[0]!);
    return text(el) || ((el as HTMLInputElement).value ?? '').trim();
  };
  return [...document.querySelectorAll(sel)]
    .filter((el) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed')
    .map((el) => [el, nameOf(el)]);
}

function puppeteerPage(page: PpPage): TestPage {
  const log = pageLog();
  page.on('pageerror', log.onError);
  page.on('request', log.onRequest);
  page.on('console', log.onConsole);
  const find = async (role: string, name: string | RegExp): Promise<ElementHandle<Element>> => {
    const pattern = typeof name === 'string' ? { exact: name } : { source: name.source, flags: name.flags };
    const deadline = Date.now() + 30_000;
    for (;;) {
      const handle = await page.evaluateHandle(
        (r, p, listSource) => {
          const list = new Function(`return (${listSource})`)() as typeof namedElements;
          const match = (n: string) => ('exact' in p ? n === p.exact : new RegExp(p.source!, p.flags).test(n));
          return list(r).find(([, n]) => match(n))?.[0] ?? null;
        },
        role,
        pattern as { exact?: string; source?: string; flags?: string },
        namedElements.toString(),
      );
      const el = handle.asElement() as ElementHandle<Element> | null;
      if (el) return el;
      await handle.dispose();
      if (Date.now() > deadline) throw new Error(`no visible ${role} named ${String(name)}`);
      await page.waitForFunction(() => true, { polling: 'raf' });
    }
  };
  return {
    engine: 'firefox',
    ...log.lists,
    goto: async (url) => void (await page.goto(url)),
    press: (key) => page.keyboard.press(key),
    evaluate: ((fn: (a?: unknown) => unknown, arg?: unknown) => page.evaluate(fn, arg)) as TestPage['evaluate'],
    waitForFunction: async (fn, timeout = 30_000) => void (await page.waitForFunction(fn, { timeout, polling: 100 })),
    byRole(role, name) {
      return {
        click: async () => (await find(role, name)).click(),
        async fill(text) {
          const el = await find(role, name);
          await el.click({ count: 3 });
          await el.evaluate((e) => (e as HTMLInputElement).select?.());
          await page.keyboard.press('Backspace');
          await el.type(text);
        },
        press: async (key) => (await find(role, name)).press(key),
      };
    },
    async clickText(text) {
      await page.waitForFunction(
        (t) =>
          [...document.querySelectorAll('body *')].some((e) => e.textContent?.trim() === t && (e as HTMLElement).offsetParent !== null),
        { timeout: 30_000 },
        text,
      );
      const handle = await page.evaluateHandle(
        (t) =>
          [...document.querySelectorAll('body *')]
            .reverse()
            .find((e) => e.textContent?.trim() === t && (e as HTMLElement).offsetParent !== null)!,
        text,
      );
      await (handle as ElementHandle<Element>).click();
    },
    countText: (text, within) =>
      page.evaluate(
        (p, root) => {
          const match = (n: string) =>
            'part' in p ? n.toLowerCase().includes(p.part!.toLowerCase()) : new RegExp(p.source!, p.flags).test(n);
          const scope = root ? document.querySelector(root) : document;
          const search = (node: Document | Element | ShadowRoot | null): Element[] => {
            if (!node) return [];
            const own = node instanceof Element ? search(node.shadowRoot) : [];
            return [...own, ...[...node.querySelectorAll('*')].flatMap((el) => [el, ...search(el.shadowRoot)])];
          };
          const own = (el: Element) => [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent!.trim());
          return search(scope).filter(
            (el) => own(el) && (el as HTMLElement).offsetParent !== null && match((el.textContent ?? '').replace(/\s+/g, ' ').trim()),
          ).length;
        },
        (typeof text === 'string' ? { part: text } : { source: text.source, flags: text.flags }) as {
          part?: string;
          source?: string;
          flags?: string;
        },
        within ?? null,
      ),
    async screenshot({ selector, path, omitBackground, fullPage }: Shot = {}) {
      const shoot = async () => {
        const target = selector ? await page.waitForSelector(selector) : page;
        return Buffer.from(await target!.screenshot({ fullPage }));
      };
      // WebDriver BiDi has no transparent screenshot: take it over a black and over a white page and recover each
      // pixel's alpha from the difference (alpha = 1 - (white - black)), its colour from the black one.
      const png = omitBackground ? await transparentShot(page, shoot) : await shoot();
      if (path) writeFileSync(path, png);
      return png;
    },
    colorScheme: () =>
      Promise.reject(new Error('puppeteer-core emulates prefers-color-scheme over CDP only; Firefox speaks WebDriver BiDi')),
    onResponse(fn) {
      page.on('response', async (res) => {
        const body = await res.text().catch(() => '');
        fn({ url: res.url(), headers: JSON.stringify(res.headers()), body });
      });
    },
    close: () => page.close(),
  };
}
