import { build } from 'esbuild';

/**
 * `entry` bundled into one ES module as a Worker or edge function bundler would (esbuild, the bundler wrangler
 * uses): browser/worker conditions, `node:*` left as imports, so a Node-only import fails in the runtime itself.
 * `iife` with `globalName` makes a script that sets that global to the entry's exports.
 */
export async function bundle(entry: string, format: 'esm' | 'iife' = 'esm', globalName?: string): Promise<string> {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format,
    ...(globalName ? { globalName } : {}),
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'edge-light', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** What miniflare's `getWorker()` answers, as these tests use it (its own types need @cloudflare/workers-types). */
export interface WorkerFetcher {
  fetch(url: string, init?: RequestInit): Promise<Response>;
  scheduled(options: { cron: string }): Promise<unknown>;
}
