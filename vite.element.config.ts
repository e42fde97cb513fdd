import { posix, resolve } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
// @ts-expect-error -- plain ESM script without types
import { thirdPartyNotices } from './scripts/notices.mjs';
import { chunkFileNames } from './vite.config';

/**
 * Both builds here render with Preact through `preact/compat` (React's API in ~10 kB gzip instead of ~60 kB):
 * react, react-dom and the JSX runtimes resolve to it here, and only here. Every React entry of the package keeps
 * importing real React.
 */
const preactCompat = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * The core, as the element of the package imports it: from the package's own core entry (dist/index.js) and its
 * internal entry (dist/internal.js), never a copy of them. So the element and `import 'liveai-kit/livekit'` (or
 * `liveai-kit/daily`) share one transport registry, and a page that also imports `liveai-kit` gets one core.
 */
const coreFromPackage = (): Plugin => {
  const entries: Record<string, string> = {
    [resolve('src/core/index.ts')]: 'index.js',
    [resolve('src/core/internal.ts')]: 'internal.js',
  };
  // The import is marked with this prefix, then rewritten in each chunk to the path from that chunk to dist/.
  const MARK = 'liveai-core:/';
  return {
    name: 'liveai-core-from-package',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith(MARK)) return { id: source, external: true };
      if (!importer || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const file = resolved && entries[resolved.id];
      return file ? { id: MARK + file, external: true } : null;
    },
    renderChunk(code, chunk) {
      if (!code.includes(MARK)) return null;
      const up = posix.relative(posix.dirname(chunk.fileName), '.');
      return { code: code.replaceAll(MARK, up ? `${up}/` : './'), map: null };
    },
  };
};

/**
 * `liveai-kit/element` (dist/element.js, `vite build -c vite.element.config.ts --mode package`, after the library
 * build): the element for bundled pages, with Preact and zustand inside and the core imported from the package (see
 * above), so it builds and runs in an app without React (Vue, Svelte, plain Vite). Left unminified, as every entry of
 * the package: the app's bundler minifies. Its on-demand chunks (translations, the device picker, chroma key) go to
 * dist/chunks/ as `element-…`.
 */
const packageBuild: UserConfig = {
  plugins: [coreFromPackage(), react(), thirdPartyNotices('THIRD_PARTY_NOTICES.element.md')],
  resolve: { alias: preactCompat },
  oxc: { jsx: { development: false } },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    minify: false,
    copyPublicDir: false,
    lib: { formats: ['es'], entry: { element: 'src/element/index.ts' } },
    rollupOptions: {
      experimental: { attachDebugInfo: 'none' },
      output: { chunkFileNames: 'chunks/element-[name]-[hash].js' },
    },
  },
};

/** What a call checks and decodes on Start, and the session engine (see the standalone build's chunks). */
const CALL_CHECKS =
  /src[\\/](core[\\/](events[\\/]read|schemas[\\/](events|call-path|common|parts|sessions|proxy)|transports[\\/]avatar-identity|session[\\/]session)|shared[\\/]outage)\.ts$|node_modules[\\/]valibot[\\/]/;
/**
 * The call's screens and controls, with the strings and hooks only they use. The element fetches them when Start
 * comes into view, that is at once for an element in view, so they share the call-path chunk: in chunks of their
 * own, the screens' chunk imported four small ones requested one round trip later (a third wave of requests), and
 * one chunk of their own for both needed the bundler's runtime in yet another chunk (again a third wave).
 */
const CALL_UI =
  /src[\\/](components[\\/](stage[\\/]call-screens|widget[\\/](call-ui|CallControls|ConnectionHint|StopTalking)|controls[\\/]ChatInput|transcript[\\/]\w+|i18n[\\/](en|use-messages)|format)|react[\\/](useControl|useAudioLevel))\.tsx?$/;

/**
 * Standalone `<liveai-avatar>` for a plain HTML page with ONE script tag:
 *   <script type="module" src="/liveai-avatar.js"></script>
 * Preact (as React, see above) and zustand load with dist/standalone/liveai-avatar.js (one chunk); the transport SDKs
 * (livekit-client, @daily-co/daily-js) stay separate chunks under dist/standalone/chunks/, loaded with
 * `import()` only when a session needs one. Build: `vite build -c vite.element.config.ts`.
 */
const standaloneBuild: UserConfig = {
  // THIRD_PARTY_NOTICES.md: the license of every package bundled here (the minifier strips license comments).
  plugins: [react(), thirdPartyNotices()],
  resolve: { alias: preactCompat },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // Production JSX even when NODE_ENV is `test`/`development` (e.g. built from vitest).
  oxc: { jsx: { development: false } },
  build: {
    target: 'es2022',
    outDir: 'dist/standalone',
    emptyOutDir: true,
    sourcemap: false,
    minify: true,
    modulePreload: false,
    copyPublicDir: false,
    // An app-style build (not lib mode) so the ES output is fully minified.
    rollupOptions: {
      input: 'src/element/standalone.ts',
      preserveEntrySignatures: 'allow-extension',
      output: {
        format: 'es',
        entryFileNames: 'liveai-avatar.js',
        chunkFileNames,
        // Everything the script imports statically goes in the script itself: left to the default splitting, the
        // modules it shares with its lazy chunks became nine files under 1.3 kB each, 11 requests on the first load.
        // 'allow-extension' lets the script also export what its lazy chunks import from it; with 'exports-only' the
        // script was a one-line file re-exporting a second chunk, one more round trip before anything ran.
        // And everything a call checks and decodes on Start (the call-path schemas with the parts they share with
        // the full schemas, event decoding, who the avatar is, reconnect decisions, valibot) is one chunk, which the
        // engine fetches at once and either adapter imports: left apart, those files were requested one round trip
        // after the chunk that imports them. The session engine (which the core loads with `import()` once the
        // element is on the page, and on Start) goes in it too: the engine fetches the checks at once anyway. First
        // load: the script and this chunk, 2 requests, each needing only the one before it
        // (scripts/bench/element-chain.mjs). The call's screens and controls go in it as well (see `CALL_UI`).
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            {
              name: 'call-path',
              test: (id: string) => CALL_CHECKS.test(id) || CALL_UI.test(id),
            },
          ],
        },
      },
    },
  },
};

export default defineConfig(({ mode }) => (mode === 'package' ? packageBuild : standaloneBuild));
