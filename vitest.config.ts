import './scripts/node-polyfills.mjs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Test tiers:
 * - unit: core, react, components, element — jsdom + Testing Library;
 * - server: proxy and emulator over HTTP (supertest, real emulator), property tests;
 * - browser: real LiveKit + real Chromium + emulator; needs the network namespace (scripts/test.mjs);
 * - soak: a short soak (scripts/soak): simulated visitors against two proxies on one Redis with faults; invariants
 *   asserted (about 3 minutes, one file, alone);
 * - consumer: the packed tarballs installed into fresh apps (Next.js, Vite, TypeScript nodenext, npx).
 */
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup/jsdom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts', 'test/emulator/**/*.test.ts', 'test/scripts/**/*.test.ts'],
          setupFiles: ['test/setup/quiet-rtc-node.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          globalSetup: ['test/browser/global-setup.ts'],
          setupFiles: ['test/setup/quiet-rtc-node.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'soak',
          environment: 'node',
          include: ['test/soak/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Consumer apps built from the packed tarballs (test/consumer/prepare.mjs installs them beforehand,
          // outside the namespace); the web apps play the avatar on real LiveKit, so this runs in the namespace too.
          name: 'consumer',
          environment: 'node',
          include: ['test/consumer/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          globalSetup: ['test/browser/global-setup.ts'],
          setupFiles: ['test/setup/quiet-rtc-node.ts'],
        },
      },
    ],
  },
});
