// vitest config for scripts/bench/renders.bench.tsx only (jsdom, React plugin); not part of the test suite.
import '../node-polyfills.mjs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    root: new URL('../..', import.meta.url).pathname,
    environment: 'jsdom',
    include: ['scripts/bench/renders.bench.tsx'],
    // A guard against a hang, not a limit on the measurement: on a loaded machine one count takes minutes.
    testTimeout: 900_000,
  },
});
