// The static Storybook build the story-driven browser tests open (stories, widget-face, styles-families): built once
// per file unless LIVEAI_STORYBOOK_PREBUILT=1 says storybook-static/ is current, and served from loopback.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
export const STORYBOOK_STATIC = join(ROOT, 'storybook-static');

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Builds storybook-static/ unless LIVEAI_STORYBOOK_PREBUILT=1 and a build is there. */
export function ensureStorybookBuilt(): void {
  if (process.env.LIVEAI_STORYBOOK_PREBUILT === '1' && existsSync(join(STORYBOOK_STATIC, 'index.json'))) return;
  execFileSync('npx', ['storybook', 'build', '-o', STORYBOOK_STATIC, '--quiet'], { cwd: ROOT, stdio: 'ignore' });
}

/** Serves storybook-static/ on 127.0.0.1 (nothing outside it); `url` has no trailing slash. */
export async function serveStorybook(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = join(STORYBOOK_STATIC, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(STORYBOOK_STATIC) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
