import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SessionListSchema } from '../../src/core/schemas';
import { createSealer } from '../../src/server/session/handle';
import { API_KEY, SESSION_SECRET, useBrowserStack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * Issue 7, faults: the drop-in widget (test/browser/pages/widget.html) through the real proxy to the local
 * service (media on, real LiveKit) while the service answers slowly, fails or drops connections. The user
 * always sees a typed error (never a blank page or raw text), no paid session is created twice, and every
 * session that was created ends.
 */
type Probe = WidgetProbe;
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);
const TYPED_CODES = ['upstream_error', 'timeout', 'transport_failed', 'rate_limited', 'conflict', 'not_found'];
const TERMINAL = ['COMPLETED', 'FAILED', 'TIMED_OUT'];
const sealer = createSealer(new TextEncoder().encode(SESSION_SECRET));
/** The service's id of a session whose proxy handle a page saw (the pages hold handles; the proxy's secret maps them). */
const serviceIdOf = async (handle: string) => (await sealer.open(handle)).sessionId;

const env = useBrowserStack({ queueMs: 300 });
const seenSessionIds: string[] = [];
const pageErrors: string[] = [];

async function setFaults(faults: Record<string, unknown>) {
  const res = await fetch(`${env.stack.emulatorUrl}/__emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(res.status).toBe(200);
}
const NO_FAULTS = { latencyMs: 0, failRate: 0, dropRate: 0, nextSessionOutcome: null };

async function upstreamSessions() {
  const res = await fetch(`${env.stack.emulatorUrl}/liveai/sessions?limit=100`, { headers: { 'X-API-Key': API_KEY } });
  return v.parse(SessionListSchema, await res.json()).sessions;
}

/** Opens the page, clicks Start call once and waits until the widget is active or shows an error. */
async function attempt(): Promise<{ page: Page; outcome: 'active' | 'error' }> {
  const page = await env.context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
  await page.getByRole('button', { name: 'Start call' }).click();
  const handle = await page.waitForFunction(
    () => {
      const p = (window as unknown as { __liveai: Probe }).__liveai.phases;
      return p.includes('active') ? 'active' : p.includes('error') ? 'error' : false;
    },
    null,
    { timeout: 90_000, polling: 100 },
  );
  return { page, outcome: (await handle.jsonValue()) as 'active' | 'error' };
}

/** The widget shows a typed, readable error: an alert with a known title, the error code is a LiveAiError code. */
async function expectTypedError(page: Page) {
  const alert = page.getByRole('alert');
  await expect.poll(() => alert.count()).toBe(1);
  const text = (await alert.innerText()).trim();
  expect(text).not.toMatch(/^Something went wrong/);
  expect(text).not.toMatch(/<html|<!doctype|\bat \S+:\d+:\d+|\[object Object\]|undefined/i);
  expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
  const { errors } = await probe(page);
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(TYPED_CODES).toContain(e.code);
}

async function finish(page: Page) {
  const p = await probe(page);
  expect(p.sessionIds.length).toBeLessThanOrEqual(1); // one click, at most one paid session
  seenSessionIds.push(...p.sessionIds);
  await page.close();
}

describe('widget under upstream faults (issue 7)', () => {
  it('every request failing with 500: a typed error, no session', async () => {
    await setFaults({ ...NO_FAULTS, failRate: 1 });
    const { page, outcome } = await attempt();
    expect(outcome).toBe('error');
    await expectTypedError(page);
    expect((await probe(page)).errors[0]!.code).toBe('upstream_error');
    await finish(page);
    await setFaults(NO_FAULTS);
    expect(await upstreamSessions()).toHaveLength(0);
  });

  it('every connection dropped: a typed error, no session', async () => {
    await setFaults({ ...NO_FAULTS, dropRate: 1 });
    const { page, outcome } = await attempt();
    expect(outcome).toBe('error');
    await expectTypedError(page);
    await finish(page);
    await setFaults(NO_FAULTS);
    expect(await upstreamSessions()).toHaveLength(0);
  });

  it('a session the service fails after the queue: a typed error, and it has ended', async () => {
    await setFaults({ ...NO_FAULTS, nextSessionOutcome: 'fail' });
    // The faults above also failed the proxy's count of the account's running sessions (its store starts empty), and
    // after a failed count creates are refused for 10 s (503, a typed error, no session): try again until one is
    // admitted, as a visitor would.
    let { page, outcome } = await attempt();
    for (let tries = 0; tries < 30 && (await probe(page)).sessionIds.length === 0; tries += 1) {
      await page.close();
      ({ page, outcome } = await attempt());
    }
    expect(outcome).toBe('error');
    await expectTypedError(page);
    const [id] = (await probe(page)).sessionIds;
    expect(id).toBeTruthy();
    expect(env.stack.emulator.state.session(await serviceIdOf(id!))?.session_status).toBe('FAILED');
    await finish(page);
  });

  it('slow and flaky service (latency 150 ms, 30 % of requests 500): each call is active or a typed error', async () => {
    await setFaults({ ...NO_FAULTS, latencyMs: 150, failRate: 0.3 });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { page, outcome } = await attempt();
      outcomes.push(outcome);
      if (outcome === 'error') await expectTypedError(page);
      else {
        await page.getByRole('button', { name: /^End/ }).click();
        await page.waitForFunction(
          () => {
            const p = (window as unknown as { __liveai: Probe }).__liveai.phases;
            return p.includes('ended') || p.includes('error');
          },
          null,
          { timeout: 60_000 },
        );
        expect(await page.locator('body').innerText()).toMatch(/Call ended|avatar service/);
      }
      await finish(page);
    }
  });

  it('afterwards: no duplicated paid session, and every created session has ended', async () => {
    await setFaults(NO_FAULTS);
    const listed = await upstreamSessions();
    // Each click created at most one session, and every session the service has was one a page knew.
    expect(new Set(seenSessionIds).size).toBe(seenSessionIds.length);
    const seenAtService = await Promise.all(seenSessionIds.map(serviceIdOf));
    expect(listed.map((s) => s.session_id).sort()).toEqual(seenAtService.sort());
    await expect
      .poll(
        async () =>
          (await upstreamSessions()).filter((s) => !TERMINAL.includes(s.session_status)).map((s) => `${s.session_id} ${s.session_status}`),
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
