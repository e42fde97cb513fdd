import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useEngineStack } from './harness';

/**
 * Issue 25, autoplay rules: Firefox set to block audible autoplay (`media.autoplay.default` = 1, what a visitor may
 * choose in its settings; Safari behaves so by default). A call the page starts with no user gesture (a host page's
 * `start()` on load) gets its audio blocked: the widget says "Turn on sound", and after that tap the audio plays.
 * The test only reads the page's console until the tap: over WebDriver BiDi, every script a test runs in the page
 * is a user activation and would lift the block (the tap itself is a real click).
 */
describe('autoplay blocked by the browser (Firefox, media.autoplay.default = 1)', () => {
  const env = useEngineStack('firefox', { queueMs: 300 }, { firefoxPrefs: { 'media.autoplay.default': 1 } });

  it('a call started without a gesture: "Turn on sound" is shown, and after the tap audio plays', async () => {
    const page = await env.browser.newPage();
    const said = () => page.consoleMessages.filter((m) => m.startsWith('liveai-autoplay ')).map((m) => m.slice(16));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/autoplay.html`);
    await expect.poll(said, { timeout: 60_000, interval: 200 }).toContain('phase active');
    await expect.poll(said, { timeout: 30_000, interval: 200 }).toContain('blocked true');
    expect(said()).not.toContain('playing');
    mkdirSync('test-results/autoplay/firefox', { recursive: true });
    await page.screenshot({ path: 'test-results/autoplay/firefox/tap-to-unmute.png', fullPage: true });
    expect(await page.countText('Turn on sound')).toBe(1);

    await page.byRole('button', 'Turn on sound').click();
    await expect.poll(said, { timeout: 10_000, interval: 200 }).toContain('playing');
    expect(said().at(-1) === 'blocked false' || said().includes('blocked false')).toBe(true);
    await expect.poll(() => page.countText('Turn on sound')).toBe(0);
    expect(page.pageErrors).toEqual([]);
    await page.byRole('button', /^End/).click();
    await page.close();
  });
});
