// The app's server: the local avatar service (speaking the provider labels of the real service, as the published
// plugin expects), liveai-kit's proxy for the browser, and POST /api/call, which starts a LiveKit agent for a fresh
// room and hands the browser what it needs to attach: {session_id, client_token, transport, room_url, token}.
// Secrets (API key, LiveKit secret, session secret) stay here.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { AccessToken } from 'livekit-server-sdk';
import { createServer as createVite } from 'vite';
import react from '@vitejs/plugin-react';
import { createEmulator } from 'liveai-kit/emulator';
import { createAvatarProxy, issueClientToken } from 'liveai-kit/server';
import { startAgent } from './agent-launch.mjs';

const PORT = Number(process.env.PORT ?? 5173);
const LABELS = 'rtc-a=livekit,rtc-b=daily';
const livekit = {
  url: process.env.LIVEKIT_URL ?? 'ws://127.0.0.1:7880',
  apiKey: process.env.LIVEKIT_API_KEY ?? 'devkey',
  apiSecret: process.env.LIVEKIT_API_SECRET ?? 'secret',
};
const sessionSecret = process.env.SESSION_SECRET ?? randomBytes(32).toString('hex');

// 1. The local avatar service (in a real deployment: the service's URL and your API key).
const service = await createEmulator({ port: 0, media: true, livekit, providerLabels: LABELS });
const apiKey = 'dev-key-alice'; // from the built-in seed; owns agent-demo

// 2. The proxy the browser talks to (status, control, end), and the agent launcher.
const app = express();
app.use('/api/avatar', createAvatarProxy({ upstream: { baseUrl: service.url, apiKey }, sessionSecret, livekit, providerLabels: LABELS }));

/** room name → the agent process of that call */
const calls = new Map();

app.post('/api/call', async (_req, res) => {
  const room = `call-${randomBytes(4).toString('hex')}`;
  const { agent, started } = startAgent({ livekit, serviceUrl: service.url, apiKey, room });
  calls.set(room, agent);
  agent.on('exit', () => calls.delete(room));
  const { ready, detail } = await started;
  if (!ready) return res.status(502).json({ detail });
  const viewer = new AccessToken(livekit.apiKey, livekit.apiSecret, { identity: `user-${randomBytes(3).toString('hex')}`, ttl: '1h' });
  viewer.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
  // session_id here is an opaque handle: the service's own session id stays on this server.
  const { session_id, client_token, expires_at } = await issueClientToken({ sessionSecret }, ready.session_id);
  res.json({
    room,
    session: {
      session_id,
      client_token,
      expires_at,
      transport: 'rtc-a',
      room_url: livekit.url,
      token: await viewer.toJwt(),
    },
  });
});

// Without speech-to-text and an LLM the demo agent says what you type; interrupt stops it mid-sentence.
app.post('/api/call/:room/:cmd', express.json(), (req, res) => {
  const agent = calls.get(req.params.room);
  if (!agent) return res.status(404).json({ detail: 'no such call' });
  if (req.params.cmd === 'say' && typeof req.body?.text === 'string')
    agent.stdin.write(`${JSON.stringify({ cmd: 'say', text: req.body.text.slice(0, 500) })}\n`);
  else if (req.params.cmd === 'interrupt') agent.stdin.write('{"cmd":"interrupt"}\n');
  else if (req.params.cmd === 'end') agent.stdin.write('{"cmd":"quit"}\n');
  else return res.status(400).json({ detail: 'use say {text}, interrupt or end' });
  res.json({ ok: true });
});

// 3. The front end (Vite in middleware mode).
// dedupe: one React and one livekit-client, also when liveai-kit is linked from a folder with its own node_modules
const vite = await createVite({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { dedupe: ['react', 'react-dom', 'livekit-client'] },
  server: { middlewareMode: true },
  appType: 'spa',
});
app.use(vite.middlewares);
const server = app.listen(PORT, '127.0.0.1', () => console.log(`open http://127.0.0.1:${PORT}`));

const stop = async () => {
  // let each agent leave its room before we go (it logs to our pipe until it exits); kill what is left after 5 s
  const agents = [...calls.values()];
  const exited = agents.map((agent) => new Promise((resolve) => agent.once('exit', resolve)));
  for (const agent of agents) agent.stdin.write('{"cmd":"quit"}\n');
  const timer = setTimeout(() => agents.forEach((agent) => agent.kill()), 5000);
  await Promise.all(exited);
  clearTimeout(timer);
  server.close();
  await vite.close();
  await service.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
