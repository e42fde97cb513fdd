import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * `liveai-kit/widget`: a page that imports `AvatarWidget` from it and is bundled with code splitting (esbuild, as
 * the same-feature bench builds its pages) downloads, on first load, none of what the widget loads on demand: the
 * call's controls and chat field, the "More options" menu with its device selects, the pre-join step, the image
 * swapper of "Change look", the stage's screens of a placed call (progress, ended, error), the transcript, and the
 * strings only those show. They are on the page only once it asks for them (import()).
 */
const ROOT = resolve(__dirname, '../..');
const DIST = join(ROOT, 'dist');
const hasDist = existsSync(join(DIST, 'widget.js'));
if (!hasDist && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error('dist/ is missing: CI must run `npm run build` first');

/** What only the parts loaded on demand draw (their class names), by part. */
const ON_DEMAND: Record<string, string> = {
  'the call controls': '"liveai-dock"',
  'the chat field': '"liveai-chat"',
  '"More options" and its device selects': 'liveai-device__select',
  'the pre-join step': '"liveai-prejoin__devices"',
  'the image swapper': '"liveai-images__zone"',
  "the stage's progress while the avatar starts": '"liveai-queue__bar"',
  "the stage's ended and error screens": '"liveai-stage__message"',
  'the transcript and captions': '"liveai-transcript',
  // The strings only those screens show (the English catalogue's rest loads with them).
  "the ended screen's words": 'The avatar left the call.',
  "the error screen's words": 'Check your internet connection.',
  "the cost's words": 'The cost will appear shortly.',
};

/** Strings the first load must hold: what shows before the call and from the click on, before any chunk arrives. */
const FIRST: Record<string, string> = {
  'the Start button': 'Start call',
  'the launcher': 'Talk to ',
  'the line over the picture from the click on': 'You can talk once the avatar is live.',
  'a refused microphone': 'Microphone blocked. Type to talk, or allow it in your browser.',
};

/** The JavaScript of a page's first load (its file and the files it imports statically) and of all its files. */
async function page(importFrom: string): Promise<{ first: string; all: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'liveai-widget-page-'));
  try {
    const entry = join(dir, 'page.jsx');
    writeFileSync(
      entry,
      `import { AvatarWidget } from '${importFrom}';\nconsole.log(<AvatarWidget proxyUrl="/api/avatar" agentId="a" />);\n`,
    );
    const r = await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      outdir: join(dir, 'out'),
      write: false,
      metafile: true,
      platform: 'browser',
      jsx: 'automatic',
      external: ['react', 'react-dom', 'react/jsx-runtime', 'zustand', 'zustand/*', 'valibot', 'livekit-client', '@daily-co/daily-js'],
      logLevel: 'error',
    });
    const text = Object.fromEntries(r.outputFiles.map((f) => [f.path, f.text]));
    const outputs = r.metafile.outputs;
    const main = Object.keys(outputs).find((f) => outputs[f]!.entryPoint?.endsWith('page.jsx'))!;
    const first = new Set<string>();
    const walk = (f: string) => {
      if (first.has(f)) return;
      first.add(f);
      for (const i of outputs[f]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) walk(i.path);
    };
    walk(main);
    const abs = (f: string) => resolve(f);
    return {
      first: [...first].map((f) => text[abs(f)] ?? '').join('\n'),
      all: Object.values(text).join('\n'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('liveai-kit/widget, bundled with code splitting', () => {
  if (!hasDist) {
    it.skip('skipped: dist/ is missing — run `npm run build` first', () => {});
    return;
  }

  it('keeps what the widget loads on demand out of the first load', async () => {
    const { first, all } = await page(join(DIST, 'widget.js'));
    expect(first).toContain('"liveai-widget'); // the widget itself is there
    for (const [part, marker] of Object.entries(ON_DEMAND)) {
      expect(all, `${part} is in the page's files`).toContain(marker);
      expect(first, `${part} is not in the first load`).not.toContain(marker);
    }
    for (const [part, text] of Object.entries(FIRST)) expect(first, `${part} is in the first load`).toContain(text);
  });
});
