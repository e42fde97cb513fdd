import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEmulator } from '../../src/emulator/index';
import { parseCli } from '../../src/emulator/cli';
import { providerRenamer } from '../../src/core/provider-labels';
import { ALICE, Harness, LK_URL, bodies } from './helpers';

/** The body the published LiveKit avatar plugin (`@livekit/agents-plugin-lemonslice` 1.9.0) sends. */
const pluginBody = (extra: object = {}) => ({
  transport_type: 'livekit',
  properties: { livekit_url: LK_URL, livekit_token: 'avatar-token', livekit_session_id: 'RM_abc123' },
  agent_id: 'agent-demo',
  agent_prompt: 'friendly',
  agent_idle_prompt: 'calm, attentive',
  idle_timeout: 60,
  ...extra,
});

describe('provider labels rtc-a=livekit,rtc-b=daily', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ providerLabels: 'rtc-a=livekit,rtc-b=daily' });
  });
  afterAll(() => h.close());

  it('accepts the published plugin’s body, its unlisted fields included', async () => {
    const res = await h.post('/liveai/sessions', pluginBody(), ALICE);
    expect(res.status).toBe(201);
    await h.status(res.body.session_id, 'ACTIVE');
    const view = h.emu.state.session(res.body.session_id);
    expect(view?.demeanour).toEqual({ agentPrompt: 'friendly', idlePrompt: 'calm, attentive' });
  });

  it('renames every identifier: websocket transport, *_properties key, property names, list provider', async () => {
    const ws = await h.post(
      '/liveai/sessions',
      { agent_id: 'agent-demo', transport_type: 'websocket-livekit', livekit_properties: { livekit_url: LK_URL, livekit_token: 't' } },
      ALICE,
    );
    expect(ws.status).toBe(201);
    expect(ws.body.websocket_address).toMatch(/^ws:\/\//);
    const daily = await h.post(
      '/liveai/sessions',
      { agent_id: 'agent-demo', transport_type: 'daily', properties: { daily_url: 'https://rooms.example.test/r', daily_token: 't' } },
      ALICE,
    );
    expect(daily.status).toBe(201);
    expect(daily.body.room_url).toBe('https://rooms.example.test/r');
    const list = await h.get('/liveai/sessions?limit=100', ALICE);
    const providers = new Map(list.body.sessions.map((s: { session_id: string; provider: string }) => [s.session_id, s.provider]));
    expect(providers.get(ws.body.session_id)).toBe('LIVEKIT');
    expect(providers.get(daily.body.session_id)).toBe('DAILY');
  });

  it('refuses the neutral names and says so in the service’s own terms', async () => {
    const res = await h.post('/liveai/sessions', bodies.rtcA(), ALICE);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/livekit|daily/);
    expect(res.body.detail).not.toMatch(/rtc[-_]a|RTC_A/);
    const missing = await h.post('/liveai/sessions', { agent_id: 'agent-demo', transport_type: 'livekit' }, ALICE);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('livekit_url');
  });

  it('the OpenAPI document names the providers as the wire does', async () => {
    const doc = JSON.stringify((await h.get('/openapi.json')).body);
    expect(doc).toContain('livekit_url');
    expect(doc).toContain('websocket-daily');
    expect(doc).not.toMatch(/rtc[-_][ab]|RTC_[AB]/);
  });

  it('multipart payloads follow the labels too', async () => {
    const { renderFacePng } = await import('../../src/emulator/assets');
    const png = await renderFacePng('agent-demo');
    const payload = JSON.stringify({ transport_type: 'livekit', properties: { livekit_url: LK_URL, livekit_token: 't' } });
    const res = await h.raw('post', '/liveai/sessions').set('X-API-Key', ALICE).attach('image', png, 'a.png').field('payload', payload);
    expect(res.status).toBe(201);
  });
});

describe('fields the spec does not list', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ idleTimeoutS: 300 });
  });
  afterAll(() => h.close());

  it('ignores fields the service does not know, at the top level and inside properties', async () => {
    const res = await h.post(
      '/liveai/sessions',
      bodies.rtcA({ response_done_timeout: 2, properties: { rtc_a_url: LK_URL, rtc_a_token: 't', rtc_a_session_id: 'RM_1' } }),
      ALICE,
    );
    expect(res.status).toBe(201);
  });

  it('applies idle_timeout (seconds) to that session only', async () => {
    const id = await h.activeSession(bodies.rtcA({ idle_timeout: 0.2 }));
    await h.event(id, 'idle_timeout');
    await h.status(id, 'COMPLETED');
  });

  it('refuses a known field with the wrong type', async () => {
    for (const bad of [{ idle_timeout: '60' }, { idle_timeout: -1 }, { agent_idle_prompt: 5 }]) {
      const res = await h.post('/liveai/sessions', bodies.rtcA(bad), ALICE);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.detail).toMatch(/idle/);
    }
  });
});

describe('providerLabels option', () => {
  it('defaults to the neutral labels', () => {
    const r = providerRenamer();
    expect(r.neutral).toBe(true);
    expect(r.providerToWire('RTC_A')).toBe('RTC_A');
  });

  it('refuses malformed labels with a clear error', async () => {
    for (const bad of ['rtc-c=x', 'rtc-a=LiveKit', 'rtc-a=same,rtc-b=same', 'rtc-a', 'rtc-a=websocket-x']) {
      await expect(createEmulator({ port: 0, providerLabels: bad }), bad).rejects.toMatchObject({
        code: 'invalid_request',
        detail: expect.stringMatching(/^providerLabels: /),
      });
    }
  });

  it('comes from the --provider-labels flag', () => {
    expect(parseCli(['--provider-labels', 'rtc-a=livekit,rtc-b=daily']).options.providerLabels).toBe('rtc-a=livekit,rtc-b=daily');
  });

  it('round-trips any session body between neutral and labelled names', () => {
    const label = fc
      .stringMatching(/^[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,4})?$/)
      .filter((l) => !l.startsWith('websocket') && !/^rtc-[ab]$/.test(l));
    fc.assert(
      fc.property(
        label,
        label,
        fc.constantFrom('rtc-a', 'rtc-b', 'websocket-rtc-a', 'websocket-rtc-b'),
        fc.string().filter((s) => !/rtc/i.test(s)),
        (a, b, t, v) => {
          fc.pre(a !== b);
          const r = providerRenamer({ 'rtc-a': a, 'rtc-b': b });
          const side = t.includes('rtc-a') ? 'rtc_a' : 'rtc_b';
          const body = {
            transport_type: t,
            properties: { [`${side}_url`]: v, [`${side}_token`]: v },
            [`${side}_properties`]: { [`${side}_url`]: v },
            agent_prompt: v,
          };
          const wire = r.bodyToWire(body);
          expect(JSON.stringify(wire)).not.toMatch(/rtc[-_][ab]/);
          expect(r.bodyFromWire(wire)).toEqual(body);
        },
      ),
    );
  });
});
