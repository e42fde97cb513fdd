// Starts the example's LiveKit agent (../agent/agent.mjs) for one room, and tells whether it joined, or why not in
// words. web/server.mjs uses it for POST /api/call; liveai-kit's tests run it on a machine with only loopback.
import { spawn } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const AGENT_DIR = fileURLToPath(new URL('../agent/', import.meta.url));

/**
 * Starts the agent for `room`, with the plugin pointed at the avatar service (`serviceUrl`, `apiKey`). Its stderr
 * goes to this process's stderr. `started` resolves with `{ ready }` (the agent's ready report: `session_id`, …) once
 * it joined and the avatar session exists, or with `{ detail }` saying why it exited before that.
 */
export function startAgent({ livekit, serviceUrl, apiKey, room }) {
  const agent = spawn(process.execPath, ['agent.mjs'], {
    cwd: AGENT_DIR,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...{ LIVEKIT_URL: livekit.url, LIVEKIT_API_KEY: livekit.apiKey, LIVEKIT_API_SECRET: livekit.apiSecret },
      LEMONSLICE_API_URL: `${serviceUrl}/liveai/sessions`, // the plugin's own setting: point it at the service
      LEMONSLICE_API_KEY: apiKey,
      ROOM: room,
    },
  });
  // Its errors go to this terminal too; the last lines explain a failed start.
  const errors = [];
  agent.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    errors.push(...String(chunk).split('\n').filter(Boolean));
    errors.splice(0, Math.max(0, errors.length - 5));
  });
  const joined = new Promise((resolve) => {
    const lines = createInterface({ input: agent.stdout });
    lines.on(
      'line',
      (line) => line.startsWith('@@agent ') && JSON.parse(line.slice(8)).event === 'ready' && resolve(JSON.parse(line.slice(8))),
    );
    agent.on('exit', () => resolve(null));
  });
  const started = joined.then(async (ready) => (ready ? { ready } : { detail: await whyNoAgent(livekit.url, errors) }));
  return { agent, started };
}

/**
 * Why the agent exited before joining its room, in words: LiveKit not answering, or (the usual cause on a server or
 * in a container) WebRTC finding no address to connect from, since it never uses loopback; else its last error.
 */
export async function whyNoAgent(livekitUrl, errors) {
  const http = livekitUrl.replace(/^ws/, 'http');
  const up = await fetch(http, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );
  if (!up) return `the agent could not start: no LiveKit server answers at ${http}`;
  const usable = Object.values(networkInterfaces())
    .flat()
    .some((a) => a && !a.internal);
  if (!usable)
    return (
      'the agent could not join its room: WebRTC had no usable address (this machine has only loopback, which WebRTC ' +
      'does not use). Run it where a network interface has an address (a container: a bridge network, not --network none).'
    );
  return `the agent could not join its room${errors.length ? `: ${errors.at(-1)}` : ''}`;
}
