#!/usr/bin/env node
/**
 * Builds dist/styles.css (the `liveai-kit/styles.css` export): follows the `@import "./x.css";` lines
 * of src/components/styles/index.css in order, concatenates the files and minifies simply
 * (comments and redundant whitespace removed), then appends the data-theme="auto" palette (withAutoTheme).
 * Usage: node scripts/build-css.mjs [outFile]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withAutoTheme } from '../src/components/styles/auto-theme.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = resolve(root, 'src/components/styles/index.css');

/** Inlines local `@import` rules recursively. */
export function bundleCss(file, seen = new Set()) {
  if (seen.has(file)) return '';
  seen.add(file);
  return readFileSync(file, 'utf8').replace(/@import\s+["']([^"']+)["'];?/g, (_, rel) => bundleCss(resolve(dirname(file), rel), seen));
}

/** Removes comments and collapses whitespace; keeps strings and values intact. */
export function minifyCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, (m, offset, s) => (s.lastIndexOf('{', offset) > s.lastIndexOf('}', offset) ? ':' : m))
    .replace(/;}/g, '}')
    .trim();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(root, process.argv[2] ?? 'dist/styles.css');
  const css = minifyCss(withAutoTheme(bundleCss(entry)));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${css}\n`);
  console.log(`wrote ${out} (${css.length} bytes)`);
}
