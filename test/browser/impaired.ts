import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { expect } from 'vitest';
// @ts-expect-error -- a plain ESM helper without type declarations (scripts/impair)
import { startImpairedLink } from '../../scripts/impair/index.mjs';
import { CHROMIUM_ARGS, type Stack } from './harness';

/** This namespace's address, where the forwarders listen for the browser behind the link. */
const HOST = '10.203.0.1';

/** Forwards HOST:<new port> to 127.0.0.1:`port`. */
async function forward(port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((c) => {
    const up = connect(port, '127.0.0.1');
    c.pipe(up).pipe(c);
    const close = () => (c.destroy(), up.destroy());
    c.on('error', close);
    up.on('error', close);
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * A Chromium behind the userspace impaired link (scripts/impair, as the bench uses it: this kernel has no netem), and
 * a hosted room the app's server created for it to attach to. The page server and LiveKit's signalling are reached
 * through plain TCP forwarders on this namespace's address, so every packet of that browser crosses the link.
 * `closers` receives what to close after the test, in order.
 */
export async function impairedBrowser(
  stack: Stack,
  closers: (() => Promise<unknown>)[],
): Promise<{ browser: Browser; base: string; attach: Record<string, unknown> }> {
  const link = await startImpairedLink({ delayMs: 150, jitterMs: 20, loss: 0.08 });
  closers.push(() => link.close());
  const pages = await forward(Number(new URL(stack.baseUrl).port));
  const signal = await forward(7880);
  closers.push(async () => (pages.server.close(), signal.server.close()));
  const base = `http://${HOST}:${pages.port}`;
  const browser: Browser = await chromium.launch({
    executablePath: link.chromium('/usr/bin/chromium'),
    args: [...CHROMIUM_ARGS, `--unsafely-treat-insecure-origin-as-secure=${base}`],
  });
  closers.push(() => browser.close());
  const res = await fetch(`${stack.baseUrl}/api/avatar/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 'agent-demo' }),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as Record<string, unknown>;
  return { browser, base, attach: { ...created, room_url: `ws://${HOST}:${signal.port}`, transport: 'rtc-a' } };
}
