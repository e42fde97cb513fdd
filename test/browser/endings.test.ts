import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEDIA_ENGINES, type TestPage } from './driver';
import { API_KEY, useEngineStack } from './harness';
import type { WidgetProbe as Probe } from './pages/widget';

/**
 * Issue 40.3, endings that say why, in the drop-in widget against the real proxy, the local service and a real
 * LiveKit room, in Chromium and Firefox: the service ending a live call on its own (`terminate` on its control
 * endpoint → `COMPLETED`) and a call the service refuses because the account has no credits (402). Each reaches the
 * page's `onEnd` with its reason, and the visitor reads why.
 */
const probe = (page: TestPage) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);

describe.each(MEDIA_ENGINES)('endings that say why in %s (issue 40.3)', (engine) => {
  const env = useEngineStack(engine, { queueMs: 200 });
  const shots = `test-results/endings/${engine}`;

  it('the service ends a live call: "The avatar ended the call.", onEnd reason completed', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
    await page.byRole('button', 'Start call').click();
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.phases.includes('active'), 60_000);
    // The service's own id (the page holds only the proxy's handle).
    const list = (await fetch(`${env.stack.emulatorUrl}/liveai/sessions`, { headers: { 'X-API-Key': API_KEY } }).then((r) => r.json())) as {
      sessions: { session_id: string; session_status: string }[];
    };
    const id = list.sessions.find((s) => s.session_status === 'ACTIVE')!.session_id;
    // The service's own control endpoint, as the app's server (or the service itself) would end it.
    const res = await fetch(`${env.stack.emulatorUrl}/liveai/sessions/${id}/control`, {
      method: 'POST',
      headers: { 'X-API-Key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'terminate' }),
    });
    expect(res.status).toBe(200);
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.ended !== null, 30_000);
    expect((await probe(page)).ended).toMatchObject({ reason: 'completed' });
    await expect.poll(() => page.countText('The avatar ended the call.')).toBe(1);
    expect(await page.countText('Call ended')).toBe(1);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: `${shots}/completed.png`, fullPage: true });
    expect(page.pageErrors).toEqual([]);
  });

  it('out of credits: the service refuses the call (402); onEnd reason out_of_credits, the visitor reads why', async () => {
    const state = env.stack.emulator.state;
    const credits = state.credits(API_KEY)!;
    state.setCredits(API_KEY, 0);
    try {
      const page = await env.browser.newPage();
      await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
      await page.byRole('button', 'Start call').click();
      await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.ended !== null, 30_000);
      const p = await probe(page);
      expect(p.ended).toMatchObject({ reason: 'out_of_credits' });
      expect(p.errors.map((e) => e.code)).toContain('insufficient_funds');
      await expect.poll(() => page.countText('This avatar is out of call time for now.')).toBe(1);
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: `${shots}/out-of-credits.png`, fullPage: true });
      expect(page.pageErrors).toEqual([]);
    } finally {
      state.setCredits(API_KEY, credits);
    }
  });
});
