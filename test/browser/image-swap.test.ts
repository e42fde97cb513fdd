import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { INLINE_IMAGE_LIMIT_BYTES } from '../../src/core/constants';
import { createSealer } from '../../src/server/session/handle';
import { SESSION_SECRET, inboundStatsScript, launchBrowser, startStack, type Stack } from './harness';

/**
 * Issue 5, rtc-a in the real browser: a user changes the avatar's look with the widget's image swapper.
 * Chromium → proxy → local service (media on) → real LiveKit → the decoded <video> in Chromium.
 */
type SwapProbe = { phases: string[]; events: string[]; imageErrors: string[]; errors: { code: string; detail: string }[] };
const SHOTS = 'test-results/image-swap';

/** A photo-like JPEG (smooth gradient, soft blobs and sensor noise) of `width`×`height`, dominated by `rgb`. */
async function photo(width: number, height: number, rgb: [number, number, number], seed: number): Promise<Buffer> {
  const px = Buffer.alloc(width * height * 3);
  let s = seed;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const shade = 0.85 + 0.15 * Math.sin(x / 97 + y / 131) + 0.1 * Math.cos(Math.hypot(x - width / 3, y - height / 2) / 60);
      for (let c = 0; c < 3; c++) px[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(rgb[c]! * shade + 40 * rnd())));
    }
  return sharp(px, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

const probe = (page: Page) => page.evaluate(() => (window as unknown as { __swap: SwapProbe }).__swap);
const corner = (page: Page) => page.evaluate(() => (window as unknown as { __swap: { corner: () => number[] | null } }).__swap.corner());
const isControl = (r: Request) => r.method() === 'POST' && /\/api\/avatar\/sessions\/[^/]+\/control$/.test(r.url());
/** Polls the corner colour until `ok` holds (deadline `ms`); returns the last colour. */
async function cornerUntil(page: Page, ok: (rgb: number[]) => boolean, ms = 15_000): Promise<number[]> {
  let last: number[] | null = null;
  await expect.poll(async () => (last = await corner(page)) !== null && ok(last), { timeout: ms, interval: 100 }).toBe(true);
  return last!;
}
/** Waits until the page has seen `n` events of `type`. */
const eventCount = (page: Page, type: string, n: number, ms = 15_000) =>
  page.waitForFunction(
    ([t, k]) => (window as unknown as { __swap: SwapProbe }).__swap.events.filter((e) => e === t).length >= (k as number),
    [type, n] as const,
    { timeout: ms },
  );

let stack: Stack;
let browser: Browser;
let context: BrowserContext;
let files: Server;
let filesUrl = '';
let red: Buffer;
let green: Buffer;
const uploads: Buffer[] = [];

beforeAll(async () => {
  [red, green] = await Promise.all([photo(1600, 1200, [225, 70, 40], 7), photo(900, 1400, [50, 190, 70], 11)]);
  files = createServer((req, res) => {
    if (req.url === '/green.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(green);
    // A stand-in for the app's own image hosting (the page's uploadImage option): keeps the bytes, returns a URL.
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method === 'OPTIONS')
      return void res
        .writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type' })
        .end();
    if (req.method === 'POST' && req.url === '/upload') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        uploads.push(Buffer.concat(chunks));
        res
          .writeHead(200, { ...cors, 'content-type': 'application/json' })
          .end(JSON.stringify({ url: `${filesUrl}/uploaded/${uploads.length - 1}.jpg` }));
      });
      return;
    }
    const m = /^\/uploaded\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (m && uploads[Number(m[1])]) return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(uploads[Number(m[1])]);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  stack = await startStack({ queueMs: 300, imageChangeMs: 600 });
  ({ browser, context } = await launchBrowser());
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await new Promise((r) => files?.close(r));
});

describe('image swap end to end on rtc-a (issue 5)', () => {
  it('file → prepareImage → update-image → image_change_* → new picture in the video; then a URL; bad bytes are refused and the call goes on', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${stack.baseUrl}/test/browser/pages/image-swap.html`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __swap: SwapProbe }).__swap.phases.includes('active'), null, {
      timeout: 60_000,
    });
    await eventCount(page, 'bot_ready', 1, 30_000);

    // Before: the built-in agent's light-blue background.
    const before = await cornerUntil(page, ([r, , b]) => b! > r! + 60, 30_000);
    await page.screenshot({ path: `${SHOTS}/before.png`, fullPage: true });

    // 1. The user picks a 1600×1200 photo (over the inline limit) with the swapper's file input.
    expect(red.length).toBeGreaterThan(INLINE_IMAGE_LIMIT_BYTES);
    await page.getByRole('button', { name: 'More options' }).click();
    await page.getByText('Change look').click();
    await page.locator('.liveai-images input[type=file]').setInputFiles({ name: 'sunset.jpg', mimeType: 'image/jpeg', buffer: red });
    // The preview shows the prepared image: exactly 368×560.
    const preview = page.getByAltText('Preview, center-cropped to 368×560');
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => `${img.naturalWidth}×${img.naturalHeight}`), { timeout: 15_000 })
      .toBe('368×560');
    const sent = page.waitForRequest(isControl);
    await page.getByRole('button', { name: 'Apply new look' }).click();
    const body = (await sent).postDataJSON() as { event: string; image_base64?: string; image_url?: string };
    expect(body.event).toBe('update-image');
    expect(body.image_url).toBeUndefined();
    const bytes = Buffer.from(body.image_base64!, 'base64');
    expect(bytes.length).toBeLessThan(INLINE_IMAGE_LIMIT_BYTES);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 368, 560]);

    await eventCount(page, 'image_change_complete', 1);
    const ev = (await probe(page)).events;
    const at = (t: string) => ev.indexOf(t);
    expect(at('image_change_requested')).toBeGreaterThan(at('bot_ready'));
    expect(at('image_created')).toBeGreaterThan(at('image_change_requested'));
    expect(at('image_change_complete')).toBeGreaterThan(at('image_created'));
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'New look applied.' }).count()).toBe(1);
    // The decoded video now shows the photo: a red-orange background where the blue was.
    const after = await cornerUntil(page, ([r, g, b]) => r! > g! + 80 && r! > b! + 80);
    await page.screenshot({ path: `${SHOTS}/after.png`, fullPage: true });
    // With the image swapper open, chat and controls still sit inside the widget's panel (nothing spills out).
    const panel = (await page.locator('.liveai-widget__panel').boundingBox())!;
    const endButton = (await page.getByRole('button', { name: 'End', exact: true }).boundingBox())!;
    expect(endButton.y + endButton.height).toBeLessThanOrEqual(panel.y + panel.height);
    expect(before[1]! - after[1]!).toBeGreaterThan(100);
    expect(before[2]! - after[2]!).toBeGreaterThan(100);

    // 2. A public URL: typed into the swapper, previewed, sent as image_url; the video turns green.
    await page.getByRole('textbox', { name: 'Image URL' }).fill(`${filesUrl}/green.jpg`);
    await page.getByRole('button', { name: 'Preview' }).click();
    const sentUrl = page.waitForRequest(isControl);
    await page.getByRole('button', { name: 'Apply new look' }).click();
    expect((await sentUrl).postDataJSON()).toEqual({ event: 'update-image', image_url: `${filesUrl}/green.jpg` });
    await eventCount(page, 'image_change_complete', 2);
    await cornerUntil(page, ([r, g, b]) => g! > r! + 60 && g! > b! + 60);
    await page.screenshot({ path: `${SHOTS}/after-url.png`, fullPage: true });
    // The service's own record agrees: the URL is the current image, and it emitted the events the page saw, in order.
    const handle = await page.evaluate(
      () =>
        (window as unknown as { __swap: { session: { store: { getState(): { sessionId: string } } } } }).__swap.session.store.getState()
          .sessionId,
    );
    // The page holds the proxy's handle; the service knows the session by the id behind it.
    const id = (await createSealer(new TextEncoder().encode(SESSION_SECRET)).open(handle)).sessionId;
    expect(stack.emulator.state.session(id)?.image.url).toBe(`${filesUrl}/green.jpg`);
    const imageEvents = (types: string[]) => types.filter((t) => t.startsWith('image_'));
    expect(imageEvents(stack.emulator.state.events(id).map((e) => e.event.type))).toEqual(imageEvents((await probe(page)).events));

    let controls = 0;
    page.on('request', (r) => void (isControl(r) && controls++));
    // 3a. Bad bytes that reach the service: accepted (200), then image_change_error, explained to the user.
    await page.evaluate(() =>
      (window as unknown as { __swap: { session: { updateImage(i: { base64: string }): Promise<void> } } }).__swap.session.updateImage({
        base64: btoa('this is not an image at all'),
      }),
    );
    await eventCount(page, 'image_change_error', 1);
    const status = page.getByRole('status').filter({ hasText: 'The avatar could not use this image' });
    await expect.poll(() => status.count()).toBe(1);
    // A sentence for the visitor; the service's text goes to onError (below), not to the screen.
    expect(await status.textContent()).toContain('Try a different picture.');
    expect(await status.textContent()).not.toContain('not a decodable image');
    expect((await probe(page)).imageErrors).toEqual([expect.stringContaining('not a decodable image')]);
    await page.screenshot({ path: `${SHOTS}/bad-bytes.png`, fullPage: true });

    // 3b. A file that is not an image: refused in the browser with a readable message, nothing is sent.
    await page
      .locator('.liveai-images input[type=file]')
      .setInputFiles({ name: 'broken.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a jpeg at all') });
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'This image could not be read' }).count()).toBe(1);
    await expect(page.getByRole('button', { name: 'Apply new look' }).isDisabled()).resolves.toBe(true);
    expect(await preview.count()).toBe(0);
    expect(controls).toBe(1);
    // The call goes on: still active, frames keep coming, the green look stays.
    const frames = (await page.evaluate(inboundStatsScript)).framesDecoded;
    await expect
      .poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 10_000 })
      .toBeGreaterThan(frames + 25);
    await cornerUntil(page, ([r, g, b]) => g! > r! + 60 && g! > b! + 60);
    const end = await probe(page);
    expect(end.phases.at(-1)).toBe('active');
    expect(end.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/after-error.png`, fullPage: true });
  });
  it('an image that cannot fit inline is hosted by uploadImage and sent as image_url (inline images must stay under 921600 bytes)', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${stack.baseUrl}/test/browser/pages/image-swap.html?maxInline=1000&upload=${encodeURIComponent(filesUrl)}`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __swap: SwapProbe }).__swap.phases.includes('active'), null, {
      timeout: 60_000,
    });
    await eventCount(page, 'bot_ready', 1, 30_000);
    await cornerUntil(page, ([r, , b]) => b! > r! + 60, 30_000);
    const before = uploads.length;
    const sent = page.waitForRequest(isControl);
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      await (window as unknown as { __swap: { session: { updateImage(i: { blob: Blob }): Promise<void> } } }).__swap.session.updateImage({
        blob: new Blob([bytes], { type: 'image/jpeg' }),
      });
    }, red.toString('base64'));
    const body = (await sent).postDataJSON() as { event: string; image_base64?: string; image_url?: string };
    expect(body).toEqual({ event: 'update-image', image_url: `${filesUrl}/uploaded/${before}.jpg` });
    expect(uploads[before]!.equals(red)).toBe(true); // the original bytes were hosted
    await eventCount(page, 'image_change_complete', 1);
    await cornerUntil(page, ([r, g, b]) => r! > g! + 80 && r! > b! + 80);
    expect((await probe(page)).errors).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('an uploadImage that fails rejects updateImage with handler_error (your function), not a service error', async () => {
    const page = await context.newPage();
    await page.goto(
      `${stack.baseUrl}/test/browser/pages/image-swap.html?maxInline=1000&upload=${encodeURIComponent(`${filesUrl}/no-such-host-path`)}`,
    );
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __swap: SwapProbe }).__swap.phases.includes('active'), null, {
      timeout: 60_000,
    });
    const error = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const swap = (window as unknown as { __swap: { session: { updateImage(i: { blob: Blob }): Promise<void> } } }).__swap;
      return swap.session.updateImage({ blob: new Blob([bytes], { type: 'image/jpeg' }) }).then(
        () => null,
        (e: { code: string; status?: number }) => ({ code: e.code, status: e.status ?? null }),
      );
    }, red.toString('base64'));
    expect(error).toEqual({ code: 'handler_error', status: null });
    await page.close();
  });
});
