import { createAvatarHandler } from 'liveai-kit/server';
import type { Route } from './+types/api.avatar';

let handler: ((request: Request) => Promise<Response>) | undefined;

function avatar(request: Request): Promise<Response> {
  handler ??= createAvatarHandler({
    basePath: '/api/avatar',
    upstream: { baseUrl: process.env.LIVEAI_UPSTREAM_URL ?? 'http://127.0.0.1:4010', apiKey: process.env.LIVEAI_API_KEY ?? '' },
    sessionSecret: process.env.LIVEAI_SESSION_SECRET ?? '',
    // react-router-serve hands a route no socket address: behind a reverse proxy that sets X-Real-IP to the
    // client's address (the test plays that proxy), read it from there.
    clientIp: (req) => req.headers.get('x-real-ip'),
  });
  return handler(request);
}

export const loader = ({ request }: Route.LoaderArgs) => avatar(request);
export const action = ({ request }: Route.ActionArgs) => avatar(request);
