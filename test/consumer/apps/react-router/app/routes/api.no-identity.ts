import { createAvatarHandler } from 'liveai-kit/server';

// A misconfigured proxy, on purpose: nothing tells the handler who a client is (react-router-serve and
// react-router dev give a route no client address). Creates are refused with 503 and the log says, once, what to set.
let handler: ((request: Request) => Promise<Response>) | undefined;
function avatar(request: Request): Promise<Response> {
  handler ??= createAvatarHandler({
    basePath: '/api/no-identity',
    upstream: { baseUrl: process.env.LIVEAI_BASE_URL!, apiKey: process.env.LIVEAI_API_KEY! },
    sessionSecret: process.env.LIVEAI_SESSION_SECRET!,
  });
  return handler(request);
}
export const loader = ({ request }: { request: Request }) => avatar(request);
export const action = loader;
