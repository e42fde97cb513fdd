import { mkdirSync, writeFileSync } from 'node:fs';
import { By, type WebDriver } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM script without types
import { launchWebKit } from '../../scripts/webkit.mjs';
import { API_KEY, startStack, type Stack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * Issue 25, WebKit: Debian's WebKitGTK (MiniBrowser through WebKitWebDriver, in Xvfb) — Safari's engine without
 * Apple's media stack, so no RTCPeerConnection. What needs no media: the widget in each state it reaches here
 * (idle, focused, the error a browser without WebRTC gets, before any session is created), at 360 px and 1280 px,
 * light and dark; keyboard use;
 * and server rendering followed by hydration. The real proxy and the local service (media off) answer.
 */
const SHOTS = 'test-results/webkit';
type Probe = WidgetProbe;

let stack: Stack;
let wk: { driver: WebDriver; resize(width: number, height: number): Promise<void>; close(): Promise<void> };
let driver: WebDriver;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  stack = await startStack({ media: false });
  wk = await launchWebKit();
  driver = wk.driver;
});
afterAll(async () => {
  await wk?.close();
  await stack?.close();
});

const probe = () => driver.executeScript<Probe>('return window.__liveai');
/** Polls `script` (a function body returning a value) until it is truthy; the value. */
async function until<T>(script: string, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await driver.executeScript<T>(script);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${script}`);
    await driver.sleep(100);
  }
}
/** A screenshot once the page has painted what it shows now (two animation frames later). */
async function shot(name: string) {
  await driver.executeAsyncScript(
    'const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done()))',
  );
  writeFileSync(`${SHOTS}/${name}.png`, Buffer.from(await driver.takeScreenshot(), 'base64'));
}
const sessions = async (): Promise<{ session_id: string; session_status: string }[]> =>
  (await fetch(`${stack.emulatorUrl}/liveai/sessions`, { headers: { 'X-API-Key': API_KEY } }).then((r) => r.json())).sessions;
const visibleText = () => driver.executeScript<string>('return document.body.innerText');

describe('WebKit (WebKitGTK, no WebRTC)', () => {
  it('has no RTCPeerConnection (Debian build), but runs the page', async () => {
    await driver.get(`${stack.baseUrl}/test/browser/pages/widget.html`);
    expect(await driver.executeScript('return typeof RTCPeerConnection')).toBe('undefined');
    expect(await driver.executeScript('return navigator.userAgent')).toMatch(/AppleWebKit/);
  });

  for (const width of [360, 1280]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${width} px, ${theme}: idle, started from the keyboard, then a clear error for a browser without WebRTC`, async () => {
        await wk.resize(width, 900);
        // MiniBrowser's window is never narrower than its toolbar (447 px): at 360 px the widget page runs in a 360 px
        // wide frame, and the steps below run inside it.
        const narrow = width === 360;
        await driver.get(`${stack.baseUrl}/test/browser/pages/${narrow ? 'narrow' : 'widget'}.html?theme=${theme}`);
        if (narrow) await driver.switchTo().frame(await driver.findElement(By.id('phone')));
        expect(await driver.executeScript('return innerWidth')).toBe(width);
        await until(`return [...document.querySelectorAll('button')].some((b) => b.textContent.includes('Start call'))`);
        await shot(`${width}-${theme}-idle`);

        // Keyboard only: Tab until "Start call" has the focus, then Enter.
        let focused = '';
        for (let i = 0; i < 10 && !focused.includes('Start call'); i++) {
          await driver.actions().sendKeys('\uE004').perform(); // Tab
          focused = await driver.executeScript<string>(
            'const a = document.activeElement; return a?.tagName === "BUTTON" ? a.textContent : a?.outerHTML.slice(0, 120) ?? ""',
          );
        }
        expect(focused).toBe('Start call');
        await shot(`${width}-${theme}-focus`);
        // The focus ring shows, at every width (the window has the keyboard focus: see `resize` in scripts/webkit.mjs).
        expect(await driver.executeScript('return [document.hasFocus(), document.activeElement.matches(":focus-visible")]')).toEqual([
          true,
          true,
        ]);
        const outline = await driver.executeScript<string>(
          'const s = getComputedStyle(document.activeElement); return `${s.outlineStyle} ${s.outlineWidth}`',
        );
        expect(outline).toMatch(/^solid [1-9]/);
        const sessionsBefore = (await sessions()).length;
        await driver.actions().sendKeys('\uE007').perform(); // Enter

        await until(`return window.__liveai.errors.length > 0`, 30_000).catch(async (e) => {
          throw new Error(`${String(e)}: ${JSON.stringify(await probe())}`);
        });
        const p = await probe();
        expect(p.errors).toHaveLength(1);
        expect(p.errors[0]!.code).toBe('transport_failed');
        expect(p.errors[0]!.detail).toMatch(/this browser cannot make video calls/i);
        // The visitor reads it in the widget, in those words, without a misleading "check your connection".
        expect(await visibleText()).toMatch(/this browser cannot make video calls/i);
        expect(await visibleText()).not.toMatch(/check your connection/i);
        await shot(`${width}-${theme}-no-webrtc`);
        // Nothing was paid for: the page asked the proxy for no session, and the service has none more than before.
        const proxyCalls = await driver.executeScript<string[]>(
          `return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/api/avatar/'))`,
        );
        expect(proxyCalls.filter((p) => /\/(rooms|sessions)$/.test(p))).toEqual([]);
        expect((await sessions()).length).toBe(sessionsBefore);
      });
    }
  }

  it('server rendering, then hydration without a mismatch; the hydrated widget works', async () => {
    await wk.resize(1280, 900);
    for (const theme of ['light', 'dark']) {
      await driver.get(`${stack.baseUrl}/ssr/widget?theme=${theme}`);
      // The server's HTML already shows the widget before any script ran.
      const serverHtml = await until<string>(`return window.__ssr?.serverHtml`);
      expect(serverHtml).toContain('Start call');
      await until(`return window.__ssr.hydrated`);
      expect(await driver.executeScript('return window.__ssr.errors')).toEqual([]);
      await shot(`ssr-${theme}`);
    }
    // Hydrated: the Start button is live (it starts the call, which stops at once: this browser has no WebRTC).
    await driver.executeScript(`[...document.querySelectorAll('button')].find((b) => b.textContent.includes('Start call')).click()`);
    await until(`return document.body.innerText.match(/this browser cannot make (video|live) calls/i)`);
    await shot('ssr-after-start');
  });
});
