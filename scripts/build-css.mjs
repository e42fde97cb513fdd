#!/usr/bin/env node
/**
 * Builds dist/styles.css (the `liveai-kit/styles.css` export, every component) and one file per component family,
 * dist/styles/<family>.css (`liveai-kit/styles/<family>.css`) from src/components/styles/families/<family>.css:
 * follows the `@import "./x.css";` lines in order, concatenates the files and minifies simply (comments and
 * redundant whitespace removed), then appends the data-theme="auto" palette (withAutoTheme) to the file that has
 * the dark one (styles.css and styles/base.css). styles.css is the families in the order index.css lists them.
 * Usage: node scripts/build-css.mjs [outDir]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withAutoTheme } from '../src/components/styles/auto-theme.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const styles = resolve(root, 'src/components/styles');
/** The component families, each its own stylesheet, in the order index.css imports them all (styles.css). */
export const FAMILIES = [
  ...readFileSync(resolve(styles, 'index.css'), 'utf8').matchAll(/@import\s+["']\.\/families\/([\w-]+)\.css["']/g),
].map((m) => m[1]);
/** The file of a family's stylesheet (its `@import` lines name the parts). */
export const familyFile = (family) => resolve(styles, 'families', `${family}.css`);

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

/** Minified CSS of a stylesheet and everything it imports, with the data-theme="auto" palette when it has the dark one. */
export const buildCss = (file) => minifyCss(withAutoTheme(bundleCss(file)));

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(root, process.argv[2] ?? 'dist');
  const write = (out, css) => {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${css}\n`);
    console.log(`wrote ${out} (${css.length} bytes)`);
  };
  write(resolve(outDir, 'styles.css'), buildCss(resolve(styles, 'index.css')));
  for (const family of FAMILIES) write(resolve(outDir, 'styles', `${family}.css`), buildCss(familyFile(family)));
}
