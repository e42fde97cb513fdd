import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
// @ts-expect-error -- plain ESM script without types
import { thirdPartyNotices } from './scripts/notices.mjs';
import { chunkFileNames } from './vite.config';

/**
 * The standalone build renders with Preact through `preact/compat` (React's API in ~10 kB gzip instead of ~60 kB):
 * react, react-dom and the JSX runtimes resolve to it here, and only here. The `liveai-kit/element` entry of the
 * package and every React entry keep importing real React.
 */
const preactCompat = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * Standalone `<liveai-avatar>` for a plain HTML page with ONE script tag:
 *   <script type="module" src="/liveai-avatar.js"></script>
 * Preact (as React, see above) and zustand load with dist/standalone/liveai-avatar.js (one chunk); the transport SDKs
 * (livekit-client, @daily-co/daily-js) stay separate chunks under dist/standalone/chunks/, loaded with
 * `import()` only when a session needs one. Build: `vite build -c vite.element.config.ts`.
 */
export default defineConfig({
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
        // (scripts/bench/element-chain.mjs).
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            {
              name: 'call-path',
              test: /src[\\/](core[\\/](events[\\/]read|schemas[\\/](events|call-path|common|parts|sessions|proxy)|transports[\\/]avatar-identity|session[\\/]session)|shared[\\/]outage)\.ts$|node_modules[\\/]valibot[\\/]/,
            },
          ],
        },
      },
    },
  },
});
