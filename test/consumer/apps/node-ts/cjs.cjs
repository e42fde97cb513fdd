/* eslint-disable @typescript-eslint/no-require-imports -- this file IS the CommonJS require() smoke test */
// CommonJS consumers: require() of the ESM entries (Node >= 20.19). Prints one JSON line.
const core = require('liveai-kit');
const schemas = require('liveai-kit/schemas');
const server = require('liveai-kit/server');
const livekit = require('liveai-kit/livekit');
console.log(
  JSON.stringify({
    createAvatarSession: typeof core.createAvatarSession,
    LiveAiError: typeof core.LiveAiError,
    DEFAULT_RECONNECT_POLICY: typeof livekit.DEFAULT_RECONNECT_POLICY,
    AvatarEventSchema: typeof schemas.AvatarEventSchema,
    createAvatarHandler: typeof server.createAvatarHandler,
  }),
);
