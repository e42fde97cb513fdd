// Serves the built app (dist/) and mounts the companion proxy at /api/avatar, as a user's Express server would.
// Env: LIVEAI_UPSTREAM_URL, LIVEAI_API_KEY, LIVEAI_SESSION_SECRET, LIVEKIT_URL/LIVEKIT_API_KEY/LIVEKIT_API_SECRET.
// Prints `listening on http://127.0.0.1:PORT`.
import express from 'express';
import { createAvatarProxy } from 'liveai-kit/server';

const app = express();
app.use(
  '/api/avatar',
  createAvatarProxy({
    upstream: { baseUrl: process.env.LIVEAI_UPSTREAM_URL, apiKey: process.env.LIVEAI_API_KEY },
    sessionSecret: process.env.LIVEAI_SESSION_SECRET,
    livekit: { url: process.env.LIVEKIT_URL, apiKey: process.env.LIVEKIT_API_KEY, apiSecret: process.env.LIVEKIT_API_SECRET },
  }),
);
app.use(express.static('dist'));
const server = app.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
