import { createAvatarHandler } from 'liveai-kit/server';

let handler: ((request: Request) => Promise<Response>) | undefined;

function avatar(request: Request): Promise<Response> {
  handler ??= createAvatarHandler({
    basePath: '/api/avatar',
    upstream: { baseUrl: process.env.LIVEAI_UPSTREAM_URL ?? 'http://127.0.0.1:4010', apiKey: process.env.LIVEAI_API_KEY ?? '' },
    sessionSecret: process.env.LIVEAI_SESSION_SECRET ?? '',
  });
  return handler(request);
}

export const GET = avatar;
export const POST = avatar;
export const dynamic = 'force-dynamic';
