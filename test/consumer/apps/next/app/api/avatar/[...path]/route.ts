import { createAvatarHandler } from 'liveai-kit/server';
import { getUser } from '../../../auth';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Created on first use, so `next build` does not need the secrets.
let handler: ((request: Request) => Promise<Response>) | undefined;
function avatar(request: Request): Promise<Response> {
  handler ??= createAvatarHandler({
    basePath: '/api/avatar',
    upstream: { baseUrl: process.env.LIVEAI_UPSTREAM_URL ?? 'http://127.0.0.1:4010', apiKey: process.env.LIVEAI_API_KEY ?? '' },
    sessionSecret: process.env.LIVEAI_SESSION_SECRET ?? '',
    // docs/proxy.md's recipes for a self-hosted `next start`, in an app open to visitors without an account: route
    // handlers get no client address, so a signed-in user is counted on their own...
    clientKey: async (req) => (await getUser(req))?.id,
    // ...and a visitor by the address the one reverse proxy in front appended to X-Forwarded-For, when there is one
    // (TRUSTED_PROXIES=1: `next start -H 127.0.0.1`, reachable only through it). Without it, their creates get 403.
    trustProxy: process.env.TRUSTED_PROXIES ? Number(process.env.TRUSTED_PROXIES) : undefined,
  });
  return handler(request);
}

export const GET = avatar;
export const POST = avatar;
