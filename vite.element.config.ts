import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Standalone `<liveai-avatar>` for a plain HTML page with ONE script tag:
 *   <script type="module" src="/liveai-avatar.js"></script>
 * React, react-dom, zustand and zod are bundled into dist/standalone/liveai-avatar.js; the transport SDKs
 * (livekit-client, @daily-co/daily-js) stay separate chunks under dist/standalone/chunks/, loaded with
 * `import()` only when a session needs one. Build: `vite build -c vite.element.config.ts`.
 */
export default defineConfig({
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // Production JSX even when NODE_ENV is `test`/`development` (e.g. built from vitest): the bundled React is the
  // production build (see `define`), which has no `jsxDEV`.
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
      preserveEntrySignatures: 'exports-only',
      output: { format: 'es', entryFileNames: 'liveai-avatar.js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
