// `npm run dev` prints the playground URL only once the playground renders. On a first run Storybook's Vite
// optimizes the dependencies when the story is first requested (and reloads the page when it finds more), so a URL
// printed as soon as Storybook listens opened onto a spinner for many seconds. This loads the story once in headless
// Chromium (Debian's, as the tests use) until the widget's Start button shows; every later open is served from the
// optimized dependencies and Vite's already transformed modules. On a warm cache what it waits for is the story's
// first transform, which the user's first open would have waited for anyway; its own cost is the browser's start.
import { existsSync } from 'node:fs';
import { CHROMIUM_BASE_ARGS, CHROMIUM_PATH } from './chromium.mjs';

/**
 * Resolves `{rendered: true, ms}` once `storyUrl` (Storybook's iframe URL of a story) shows a button named like
 * `button`; `{rendered: false, reason}` when no Chromium is installed, or it did not render within `timeoutMs`
 * (then the caller prints the URL anyway, saying the first load may take a while).
 */
export async function waitForStory(storyUrl, { button = /Start call/, timeoutMs = 240_000 } = {}) {
  if (!existsSync(CHROMIUM_PATH)) return { rendered: false, reason: `no Chromium at ${CHROMIUM_PATH}` };
  const started = Date.now();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_BASE_ARGS });
  try {
    const page = await browser.newPage();
    // The page may reload while Vite optimizes: the locator waits across reloads.
    await page.goto(storyUrl, { timeout: timeoutMs });
    await page
      .getByRole('button', { name: button })
      .first()
      .waitFor({ timeout: Math.max(1000, timeoutMs - (Date.now() - started)) });
    return { rendered: true, ms: Date.now() - started };
  } catch (e) {
    return { rendered: false, reason: String(e?.message ?? e).split('\n')[0] };
  } finally {
    await browser.close();
  }
}
