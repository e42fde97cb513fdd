#!/usr/bin/env node
// Opens a page in headless Debian Chromium (the flags of the browser tier) and saves a screenshot, to look at what we build.
// Usage: node scripts/look.mjs [url] [out.png] [--click "button name"] [--wait-ms N]
// Inside `npm run dev`'s namespace: nsenter -t $(cat .cache/dev.pid) -n node scripts/look.mjs
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const click = flag('--click');
const waitMs = Number(flag('--wait-ms') ?? 8000);
const url = args[0] ?? 'http://127.0.0.1:6006/iframe.html?id=live-playground--widget&viewMode=story';
const out = args[1] ?? 'test-results/look.png';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
page.on('console', (m) => m.type() === 'error' && console.error(`[page] ${m.text()}`));
await page.goto(url, { waitUntil: 'networkidle' });
if (click)
  await page
    .getByRole('button', { name: new RegExp(click, 'i') })
    .first()
    .click();
// Waiting a fixed time is right here: this is a manual "look", not a test.
await page.waitForTimeout(waitMs);
await page.screenshot({ path: out, fullPage: true });
console.log(out);
await browser.close();
