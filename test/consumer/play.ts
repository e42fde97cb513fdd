import { createServer } from 'node:net';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inboundStatsScript, launchBrowser } from '../browser/harness';
import { recordFirstLoad, requireApp, serve, within, type Served } from './helpers';

export type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);

/** The installed `liveai-emulator` with media on, joining the suite's LiveKit server. */
export function startEmulator(): Promise<Served> {
  return serve('npx', ['--no', '--', 'liveai-emulator', '--port', '0', '--queue-ms', '300', ...livekitArgs()], {
    cwd: requireApp('emulator'),
    ready: /listening on (http:\/\/\S+)/,
  });
}

/**
 * The stack of a consumer test file: the installed emulator and (unless `browser: false`) Chromium, started before
 * the file's tests and stopped after them. The fields are set once `beforeAll` has run. A signed-in user's cookie
 * (`user`, read by the apps' stand-in login) can be added to the context with {@link signIn}.
 */
export function useServedStack(options: { browser?: boolean } = {}): { emulator: Served; browser: Browser; context: BrowserContext } {
  const stack = {} as { emulator: Served; browser: Browser; context: BrowserContext };
  beforeAll(async () => {
    stack.emulator = await startEmulator();
    if (options.browser !== false) Object.assign(stack, await launchBrowser());
  });
  afterAll(async () => {
    await stack.browser?.close();
    await stack.emulator?.stop();
  });
  return stack;
}

/** Signs the browser in as `user` on 127.0.0.1 (any port): the apps' stand-in for their own login reads this cookie. */
export const signIn = (context: BrowserContext, user: string) =>
  context.addCookies([{ name: 'user', value: user, domain: '127.0.0.1', path: '/' }]);

/**
 * Starts an app's server with `serve` and runs `work` with it, giving each step its own deadline (a hang names the
 * step and shows what the server printed), then stops the server whatever happened.
 */
export async function withServer<T>(
  start: () => Promise<Served>,
  work: (server: Served, step: <R>(what: string, ms: number, run: () => Promise<R>) => Promise<R>) => Promise<T>,
): Promise<T> {
  const server = await start();
  try {
    return await work(server, (what, ms, run) => within(what, ms, run, server.output));
  } finally {
    // Sessions a failed step left running cannot be ended through a stopped server (the emulator ends them).
    created.length = 0;
    await server.stop();
  }
}

/** One create request of a client: its cookie user, its own source address, the headers it forged. */
export interface CreateAs {
  user?: string;
  /** The loopback address the client connects from (e.g. `127.0.0.2`), as a distinct machine would. */
  from?: string;
  /** Sent as both `X-Forwarded-For` and `X-Real-IP`: what a client claims to be. */
  spoof?: string;
}

/** A POST with node:http (which, unlike fetch, can choose the local address), one connection per request. */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  localAddress?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Creates a room through the proxy at `base` (`…/api/avatar`) as `as` says, and returns the status and the answer.
 * Every session created this way is ended by {@link endRooms}.
 */
export async function createRoom(base: string, as: CreateAs = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (as.user) headers.cookie = `user=${as.user}`;
  if (as.spoof) Object.assign(headers, { 'x-forwarded-for': as.spoof, 'x-real-ip': as.spoof });
  const res = await post(`${base}/rooms`, headers, JSON.stringify({ agent_id: 'agent-demo' }), as.from);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    body = { notJson: res.text.slice(0, 2000) }; // a platform's own error page, say: shown by the failing assertion
  }
  if (res.status === 201) created.push({ base, user: as.user, sessionId: String(body.session_id), token: String(body.client_token) });
  return { status: res.status, body };
}
const created: { base: string; user?: string; sessionId: string; token: string }[] = [];

/** Ends every session {@link createRoom} created (through the proxy, with its client token), and checks each end. */
export async function endRooms(): Promise<void> {
  for (const s of created.splice(0)) {
    const headers: Record<string, string> = { authorization: `Bearer ${s.token}` };
    if (s.user) headers.cookie = `user=${s.user}`;
    const res = await fetch(`${s.base}/sessions/${s.sessionId}/end`, { method: 'POST', headers });
    expect(res.status, `ending ${s.sessionId}`).toBeLessThan(300);
  }
}

/**
 * A reverse proxy on 127.0.0.1 in front of `target` (an origin), as nginx with
 * `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for` is: it appends the address of the client's socket to
 * whatever `X-Forwarded-For` the client sent, and forwards the request and its answer as they are.
 */
export async function startReverseProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // keep-alive sockets of the test's clients
      }),
  };
}

/** Environment of the consumer apps' proxies (route handler or Express) towards the emulator and LiveKit. */
export const proxyEnv = (emulatorUrl: string): Record<string, string> => ({
  LIVEAI_UPSTREAM_URL: emulatorUrl,
  LIVEAI_BASE_URL: emulatorUrl,
  LIVEAI_API_KEY: 'dev-key-alice',
  LIVEAI_SESSION_SECRET: 'consumer-tier-session-secret-0123456789abcdef',
  LIVEKIT_URL: inject('livekitUrl'),
  LIVEKIT_API_KEY: inject('livekitApiKey'),
  LIVEKIT_API_SECRET: inject('livekitApiSecret'),
});

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Opens `url`, and returns the gzip size of the JS and CSS it loaded before the widget's Start button showed. */
export async function openWidget(
  context: BrowserContext,
  url: string,
): Promise<{ page: Page; firstLoadGzip: number; pageErrors: string[] }> {
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const rec = recordFirstLoad(page, new URL(url).origin);
  await page.goto(url);
  await page.getByRole('button', { name: 'Start call' }).waitFor({ timeout: 60_000 });
  const first = await rec.mark();
  return { page, firstLoadGzip: first.gzipBytes, pageErrors };
}

/** Starts a call in the widget and waits for a live talking avatar: ≥ 25 decoded 368×560 frames and audio. */
export async function playAvatar(page: Page, screenshot: string): Promise<void> {
  await page.getByRole('button', { name: 'Start call' }).click();
  await page.waitForFunction(
    () => ['active', 'error'].some((p) => (window as unknown as { __liveai: Probe }).__liveai.phases.includes(p)),
    null,
    { timeout: 90_000 },
  );
  expect((await probe(page)).errors).toEqual([]);
  await expect
    .poll(
      async () => {
        const st = await page.evaluate(inboundStatsScript);
        return st.framesDecoded >= 25 && st.totalSamplesReceived > 0;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  const stats = await page.evaluate(inboundStatsScript);
  expect([stats.frameWidth, stats.frameHeight]).toEqual([368, 560]);
  expect((await probe(page)).errors).toEqual([]);
  mkdirSync('test-results/consumer', { recursive: true });
  await page.screenshot({ path: `test-results/consumer/${screenshot}.png`, fullPage: true });
  await page.getByRole('button', { name: /^End/ }).click();
  await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.phases.includes('ended'), null, { timeout: 30_000 });
}

export { probe };

/** The `liveai-emulator` flags that join the suite's LiveKit server. */
export function livekitArgs(): string[] {
  return [
    '--livekit-url',
    inject('livekitUrl'),
    '--livekit-api-key',
    inject('livekitApiKey'),
    '--livekit-api-secret',
    inject('livekitApiSecret'),
  ];
}
