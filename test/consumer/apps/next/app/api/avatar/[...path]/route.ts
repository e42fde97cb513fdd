import { createAvatarHandler } from 'liveai-kit/server';

let handler: ((request: Request) => Promise<Response>) | undefined;

function avatar(request: Request): Promise<Response> {
  handler ??= createAvatarHandler({
    basePath: '/api/avatar',
    upstream: { baseUrl: process.env.LIVEAI_UPSTREAM_URL ?? 'http://127.0.0.1:4010', apiKey: process.env.LIVEAI_API_KEY ?? '' },
    sessionSecret: process.env.LIVEAI_SESSION_SECRET ?? '',
    // Route handlers get no socket address: read the header the platform's proxy sets (the test plays that proxy).
    clientIp: (req) => req.headers.get('x-real-ip'),
  });
  return handler(request);
}

export const GET = avatar;
export const POST = avatar;
export const dynamic = 'force-dynamic';
