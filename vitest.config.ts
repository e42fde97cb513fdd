import './scripts/node-polyfills.mjs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Test tiers (architecture §7):
 * - unit: core, react, components, element — jsdom + Testing Library;
 * - server: proxy and emulator over HTTP (supertest, real emulator), property tests;
 * - browser: real LiveKit + real Chromium + emulator; needs the network namespace (scripts/test.mjs).
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
          include: ['test/server/**/*.test.ts', 'test/emulator/**/*.test.ts'],
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
        },
      },
    ],
  },
});
