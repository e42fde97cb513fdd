// A strict TypeScript Node server (module: nodenext) using every entry of liveai-kit. Typechecked with tsc; the
// `@ts-expect-error` lines prove the option types are real (not `any`).
import express, { type Request as ExpressRequest, type Router } from 'express';
import { createAvatarSession, LiveAiError, registerTransport, type AvatarSessionOptions, type ErrorCode } from 'liveai-kit';
import { AvatarEventSchema } from 'liveai-kit/schemas';
import { AvatarSessionProvider, useSession } from 'liveai-kit/react';
import { AvatarWidget, type AvatarWidgetProps } from 'liveai-kit/components';
import { defineLiveAiAvatar } from 'liveai-kit/element';
import { DEFAULT_RECONNECT_POLICY, livekitTransport } from 'liveai-kit/livekit';
import { dailyTransport } from 'liveai-kit/daily';
import { createAvatarHandler, createAvatarProxy, createServiceClient, type AvatarHandlerOptions } from 'liveai-kit/server';
import { createAvatarProxy as createExpressRouter } from 'liveai-kit/server/express';
import { createEmulator, type EmulatorOptions } from 'liveai-kit/emulator';
import { createFakeProxy, FakeTransport } from 'liveai-kit/testing';

const options: AvatarHandlerOptions = {
  upstream: { baseUrl: 'http://127.0.0.1:4010', apiKey: 'key' },
  sessionSecret: 'a-session-secret-of-at-least-32-bytes!!',
};
// liveai-kit/server/express: Express's own types (a Router; callbacks get Express's Request).
const router: Router = createExpressRouter({
  upstream: options.upstream,
  sessionSecret: options.sessionSecret,
  authorize: (req) => req.get('x-user') !== undefined,
});
// liveai-kit/server: the same router without Express's types; an annotated callback gets Express's Request.
const plain = createAvatarProxy({
  upstream: options.upstream,
  sessionSecret: options.sessionSecret,
  authorize: (req: ExpressRequest) => req.get('x-user') !== undefined,
});
const handler: (request: Request) => Promise<Response> = createAvatarHandler({ ...options, basePath: '/api/avatar' });
// @ts-expect-error -- `upstream` is required: the options are typed, not `any`.
createAvatarProxy({ sessionSecret: 'x' });
// @ts-expect-error -- `sessionSecret` must be a string.
createAvatarHandler({ ...options, sessionSecret: 42 });

const app = express();
app.use('/api/avatar', router);
app.use('/api/avatar-plain', plain);

const sessionOptions: AvatarSessionOptions = { proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' } };
const session = createAvatarSession(sessionOptions);
const code: ErrorCode = new LiveAiError('missing_peer', 'x').code;
const deadline: number = DEFAULT_RECONNECT_POLICY.deadlineMs;
registerTransport(livekitTransport, dailyTransport);
const emulatorOptions: EmulatorOptions = { port: 0, media: false };
const props: AvatarWidgetProps = { proxyUrl: '/api/avatar', agentId: 'agent-demo' };

export const used = [
  handler,
  session,
  code,
  deadline,
  AvatarEventSchema,
  AvatarSessionProvider,
  useSession,
  AvatarWidget,
  defineLiveAiAvatar,
  createServiceClient,
  createEmulator,
  emulatorOptions,
  props,
  createFakeProxy,
  FakeTransport,
];
