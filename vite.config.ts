import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json' with { type: 'json' };

/**
 * Library build: one entry per public entry point of package.json. Every dependency and peer stays
 * external, so `livekit-client` and `@daily-co/daily-js` are only reached through the lazily imported
 * adapter chunks (`transports/livekit/adapter`, `transports/daily/adapter`).
 */
const externals = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...builtinModules];
/**
 * Chunk file names: `[name]-[hash].js`, but the two transport adapters (both `adapter.ts`) are named for their SDK,
 * `livekit-adapter-…` and `daily-adapter-…`. Also used by vite.element.config.ts.
 */
export const chunkFileNames = (chunk: { facadeModuleId: string | null }): string => {
  const sdk = /transports[\\/](livekit|daily)[\\/]adapter\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
  return sdk ? `chunks/${sdk}-adapter-[hash].js` : 'chunks/[name]-[hash].js';
};
const isExternal = (id: string) => id.startsWith('node:') || externals.some((name) => id === name || id.startsWith(`${name}/`));

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    minify: false,
    cssCodeSplit: false,
    lib: {
      formats: ['es'],
      entry: {
        index: 'src/core/index.ts',
        schemas: 'src/core/validation.ts',
        react: 'src/react/index.ts',
        components: 'src/components/index.ts',
        // The drop-in widget alone (liveai-kit/widget): a page that imports it reaches none of the components the
        // widget loads on demand except through import().
        widget: 'src/components/widget-entry.ts',
        messages: 'src/components/i18n/translations.ts',
        // Not a package export: the core's internal entry, imported by dist/element.js (built apart, with Preact:
        // vite.element.config.ts) so that the element shares the core of the package.
        internal: 'src/core/internal.ts',
        server: 'src/server/index.ts',
        'server-express': 'src/server/express-entry.ts',
        // Checks the optional packages it needs, then loads src/emulator/index.ts (whose types the entry has).
        emulator: 'src/emulator/entry.ts',
        testing: 'src/testing/index.ts',
        livekit: 'src/core/transports/livekit.ts',
        daily: 'src/core/transports/daily.ts',
      },
      cssFileName: 'styles',
    },
    rollupOptions: {
      external: isExternal,
      // No `// src/…` module markers in the shipped files (docstrings stay).
      experimental: { attachDebugInfo: 'none' },
      output: {
        chunkFileNames,
        // A few named chunks instead of one per small shared module. An app's bundler (esbuild in particular) turns
        // every module an `import()` chunk shares with the page into a separate file, each gzipped on its own; a
        // handful of larger files is what a call then downloads (and `prepare-canvas` no longer imports the core
        // entry, which kept the engine out of the page's main file). What goes in a group is loaded together anyway:
        //   kernel: errors, event bus, backoff, plain constants, phase groups, lazy loaders (first load of every entry), and
        //     the reconnect defaults `liveai-kit/livekit` exports (so that entry does not load rtc-shared with the page);
        //   image: the pure image geometry shared by the core entry and the canvas preparation chunk, and the
        //     `prepareImage` wrapper the components import (so they do not import the rest of the core);
        //   avatar-session: the session object a first paint needs (store host, event channels, audio output), apart
        //     from the rest of the core (proxy client, image preparation, audio streaming), which the session engine
        //     (its own `import()` chunk) and other on-demand chunks use: a bundler that splits by file would otherwise
        //     put that rest in the page's first load with it;
        //   state: the state machine and the reducers the session engine (and the transcript merger) use, apart
        //     from the store the session object holds;
        //   rtc-shared: what either adapter needs on joining (the event schemas, event decoding, reconnect decisions,
        //     which participant is the avatar).
        codeSplitting: {
          groups: [
            {
              name: 'kernel',
              test: /src[\\/](core[\\/](errors|lazy|events[\\/]bus|schemas[\\/]plain|transports[\\/]livekit[\\/]policy)|shared[\\/](backoff|outage-limits|phases))\.ts$/,
            },
            { name: 'image', test: /src[\\/]core[\\/]image[\\/](geometry|blob|prepare)\.ts$/ },
            { name: 'avatar-session', test: /src[\\/]core[\\/]session[\\/](create|audio-output)\.ts$/ },
            { name: 'state', test: /src[\\/]core[\\/]session[\\/]state\.ts$/ },
            {
              name: 'rtc-shared',
              test: /src[\\/](core[\\/](events[\\/]read|schemas[\\/]events|transports[\\/]avatar-identity)|shared[\\/]outage)\.ts$/,
            },
          ],
        },
      },
    },
  },
});
