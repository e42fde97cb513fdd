import type { TestProject } from 'vitest/node';
// @ts-expect-error -- plain ESM script without types
import { installLivekit, startLivekit, LIVEKIT_KEYS } from '../../scripts/livekit.mjs';

/**
 * Browser tier: starts the pinned LiveKit server inside the private network namespace (media never leaves the machine).
 * Run through `npm test` or `scripts/netns-run.sh npx vitest run --project browser`.
 */
export default async function setup(project: TestProject) {
  if (process.env.LIVEAI_IN_NETNS !== '1') {
    throw new Error(
      'the browser tier must run inside the private network namespace: use `npm test` or `scripts/netns-run.sh npx vitest run --project browser`',
    );
  }
  installLivekit({ quiet: true });
  const lk = await startLivekit();
  project.provide('livekitUrl', lk.url);
  project.provide('livekitApiKey', LIVEKIT_KEYS.apiKey);
  project.provide('livekitApiSecret', LIVEKIT_KEYS.apiSecret);
  return async () => {
    await lk.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    livekitUrl: string;
    livekitApiKey: string;
    livekitApiSecret: string;
  }
}
