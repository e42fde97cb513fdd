import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeEach, inject } from 'vitest';
import { AccessToken } from 'livekit-server-sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { issueClientToken } from '../../src/server/index';
import { API_KEY, SESSION_SECRET, type Stack } from './harness';

/** The LiveKit Agents fixture app (examples/livekit-agent/agent): its own package.json, installed with `npm ci` in that folder. */
export const AGENT_APP = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../examples/livekit-agent/agent');
export const agentAppInstalled = () => existsSync(resolve(AGENT_APP, 'node_modules/@livekit/agents-plugin-lemonslice/package.json'));
export const AGENT_APP_MISSING =
  'the agent fixture is not installed: run `npm ci --prefix examples/livekit-agent/agent` (outside the network namespace, it needs the npm registry)';

/**
 * For a describe block whose tests drive the agent fixture app; call it first in the block. `npm test`
 * (scripts/test.mjs) installs the app before the tiers that use it, so this only matters for a bare `npx vitest`:
 * with the app missing each test is a vitest skip whose note says how to install it (not a console line), and with
 * CI=true the file fails instead.
 */
export function needsAgentApp(): void {
  if (agentAppInstalled()) return;
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`${AGENT_APP_MISSING} (CI=true makes this a failure)`);
  beforeEach((ctx) => ctx.skip(AGENT_APP_MISSING));
}

/** A report line of the agent (`@@agent {json}`): `event`, epoch ms `t`, and event fields. */
export type AgentReport = { event: string; t: number; [k: string]: unknown };

/** The agent app as a child process: reports as they come, commands on stdin. */
export class AgentProcess {
  readonly reports: AgentReport[] = [];
  readonly log: string[] = [];
  private waiters: Array<() => void> = [];
  private exited: number | null = null;
  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('@@agent ')) {
        this.reports.push(JSON.parse(line.slice(8)) as AgentReport);
        for (const w of this.waiters.splice(0)) w();
      } else this.log.push(line);
    });
    child.stderr!.on('data', (d: Buffer) => this.log.push(d.toString()));
    child.on('exit', (code) => {
      this.exited = code ?? -1;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Starts `node agent.mjs` with `env` added to this process's environment. */
  static start(env: Record<string, string>): AgentProcess {
    return new AgentProcess(
      spawn(process.execPath, ['agent.mjs'], { cwd: AGENT_APP, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] }),
    );
  }

  /** Resolves with the first report (after index `from`) matching `match`; rejects after `timeoutMs` or if the agent exits. */
  async next(match: (r: AgentReport) => boolean, { from = 0, timeoutMs = 30_000 } = {}): Promise<AgentReport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.reports.slice(from).find(match);
      if (hit) return hit;
      if (this.exited !== null) throw new Error(`the agent exited (${this.exited}):\n${this.log.slice(-30).join('\n')}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for an agent report; got ${JSON.stringify(this.reports.slice(from))}\n${this.log.slice(-30).join('\n')}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => (clearTimeout(t), r()));
      });
    }
  }

  /**
   * Starts the agent in `room` of `livekit`, creating its avatar session on the local service at `emulatorUrl`, and
   * waits until it is ready (60 s): its avatar joined, or with `until: 'session'` only its avatar session created
   * (the avatar joins once the service has started it). `agent` is set on `holder` at once, so an `afterAll` can
   * stop it either way.
   */
  static async startReady(
    holder: { agent: AgentProcess | null },
    livekit: LiveKitServer,
    emulatorUrl: string,
    room: string,
    until: 'ready' | 'session' = 'ready',
  ): Promise<{ agent: AgentProcess; sessionId: string }> {
    const agent = (holder.agent = AgentProcess.start({
      LIVEKIT_URL: livekit.url,
      LIVEKIT_API_KEY: livekit.apiKey,
      LIVEKIT_API_SECRET: livekit.apiSecret,
      LEMONSLICE_API_URL: `${emulatorUrl}/liveai/sessions`,
      LEMONSLICE_API_KEY: API_KEY,
      ROOM: room,
    }));
    const ready = await agent.next((r) => r.event === until, { timeoutMs: 60_000 });
    return { agent, sessionId: String(ready.session_id) };
  }

  send(cmd: object): void {
    this.child.stdin!.write(`${JSON.stringify(cmd)}\n`);
  }

  /** Asks the agent to leave (it closes the avatar session) and waits for it to exit; kills it after 10 s. */
  async stop(): Promise<void> {
    if (this.exited !== null) return;
    const gone = new Promise<void>((r) => (this.exited !== null ? r() : this.child.once('exit', () => r())));
    this.send({ cmd: 'quit' });
    const t = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(t);
  }
}

/** The suite's LiveKit server (vitest `inject`). */
export type LiveKitServer = { url: string; apiKey: string; apiSecret: string };

/**
 * What the app's server hands a browser to attach to the agent's session: a client token for the proxy and the
 * browser's own room token (identity `user-1`).
 */
export async function viewerAttach(livekit: LiveKitServer, room: string, sessionId: string) {
  const viewer = new AccessToken(livekit.apiKey, livekit.apiSecret, { identity: 'user-1', ttl: '10m' });
  viewer.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
  return {
    ...(await issueClientToken({ sessionSecret: SESSION_SECRET }, sessionId)),
    transport: 'rtc-a',
    room_url: livekit.url,
    token: await viewer.toJwt(),
  };
}

/** The stack the agent tests run on: the local service names its providers as the real service does (rtc-a: LiveKit). */
export const AGENT_STACK = { queueMs: 200, providerLabels: 'rtc-a=livekit,rtc-b=daily' } as const;

/** An agent started in its room, and what a page needs to attach to it. */
export interface AgentRoom {
  agent: AgentProcess;
  sessionId: string;
  /** The agent's `ready` report: `avatar` is its avatar's identity (undefined with `until: 'session'`). */
  ready: AgentReport | undefined;
  /** The attach session the app's server hands the browser (see `viewerAttach`). */
  attach: Awaited<ReturnType<typeof viewerAttach>>;
  /** A test page of the page server with the attach session in its hash: `url('captions.html', '?lang=ar')`. */
  url(page: string, query?: string): string;
}

/**
 * The LiveKit Agents room of a test file, on the stack of `env` (a `useBrowserStack` / `useEngineStack` holder, built
 * with {@link AGENT_STACK}): `start(room)` starts the agent app in `room` of the suite's LiveKit server, creating its
 * avatar session on the local service, waits until it is ready (with `{ until: 'session' }`: until the avatar
 * session exists, before its avatar joined) and makes the viewer's attach session. One agent at
 * a time: a second `start` stops the first (a page's end on leaving ends the session it attached to). The agent is
 * stopped after all tests of the file.
 */
export function useAgentRoom(env: { stack: Stack }): { start(room: string, o?: { until?: 'ready' | 'session' }): Promise<AgentRoom> } {
  const running: { agent: AgentProcess | null } = { agent: null };
  afterAll(async () => {
    await running.agent?.stop();
  });
  return {
    async start(room, o = {}) {
      await running.agent?.stop();
      const livekit = { url: inject('livekitUrl'), apiKey: inject('livekitApiKey'), apiSecret: inject('livekitApiSecret') };
      const { agent, sessionId } = await AgentProcess.startReady(running, livekit, env.stack.emulatorUrl, room, o.until);
      const attach = await viewerAttach(livekit, room, sessionId);
      const hash = `#${encodeURIComponent(JSON.stringify(attach))}`;
      return {
        agent,
        sessionId,
        ready: agent.reports.find((r) => r.event === 'ready'),
        attach,
        url: (page, query = '') => `${env.stack.baseUrl}/test/browser/pages/${page}${query}${hash}`,
      };
    },
  };
}

/**
 * Waits until the avatar's audio in the page is silent after `from` (epoch ms): 10 polls in a row (0.5 s) with no
 * level. The page records `window.__agent.audio` (`{ t, level }` every 50 ms; see pages/agent-attach.tsx).
 */
export async function waitForSilence(page: Page, from: number): Promise<void> {
  await page.waitForFunction(
    (after) => {
      const a = (window as unknown as { __agent: { audio: { t: number; level: number }[] } }).__agent.audio.filter((x) => x.t > after);
      for (let i = 10; i <= a.length; i++) if (a.slice(i - 10, i).every((x) => x.level < 0.005)) return true;
      return false;
    },
    from,
    { timeout: 10_000, polling: 100 },
  );
}

/**
 * Opens pages/agent-attach.html (the widget attached to the agent's room; `pageUrl` from `AgentRoom.url`) in a new
 * page of `context`, collecting its errors, and waits until its session is active.
 */
export async function openAgentAttach(context: BrowserContext, pageUrl: string): Promise<{ page: Page; pageErrors: string[] }> {
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(pageUrl);
  await page.waitForFunction(() => (window as unknown as { __agent: { phases: string[] } }).__agent.phases.includes('active'), null, {
    timeout: 60_000,
  });
  return { page, pageErrors };
}
