import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './packages/liveai-emulator/package.json' with { type: 'json' };

/**
 * The `liveai-emulator` package (packages/liveai-emulator): the local avatar service as a tool with its own
 * dependencies, so `npx liveai-emulator` runs from an install. Its dependencies stay external; the few core
 * modules it uses (schemas, errors) are bundled in. Build: `vite build -c vite.emulator.config.ts`.
 */
const externals = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies), ...builtinModules];
const isExternal = (id: string) => id.startsWith('node:') || externals.some((name) => id === name || id.startsWith(`${name}/`));

export default defineConfig({
  build: {
    target: 'node20',
    outDir: 'packages/liveai-emulator/dist',
    emptyOutDir: true,
    sourcemap: false,
    minify: false,
    ssr: true,
    // media/host: the avatar host process (forked by the emulator, found next to the entries as media/host.js).
    lib: {
      formats: ['es'],
      entry: { index: 'src/emulator/index.ts', bin: 'src/emulator/bin.ts', 'media/host': 'src/emulator/media/host.ts' },
    },
    rollupOptions: {
      external: isExternal,
      experimental: { attachDebugInfo: 'none' },
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
