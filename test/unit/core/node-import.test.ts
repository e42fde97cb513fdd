// @vitest-environment node
import * as v from 'valibot';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Every public entry (the lib entries of vite.config.ts). */
const ENTRIES = ['core', 'react', 'components', 'element', 'server', 'emulator', 'testing'] as const;
const path = (e: string) => fileURLToPath(new URL(`../../../src/${e}/index.ts`, import.meta.url));

describe('importing every entry in plain Node (no DOM)', () => {
  it('has no DOM globals in this test', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  for (const entry of ENTRIES) {
    it.runIf(existsSync(path(entry)))(
      `liveai-kit${entry === 'core' ? '' : `/${entry}`} imports without touching window/document`,
      async () => {
        const mod = await import(/* @vite-ignore */ path(entry));
        expect(Object.keys(mod).length).toBeGreaterThan(0);
        expect(typeof window).toBe('undefined');
        expect(typeof document).toBe('undefined');
      },
    );
  }

  it('liveai-kit/schemas imports in Node and validates with English messages', async () => {
    const { AvatarEventSchema, ClientSessionSchema, parseAvatarEventMessage, validateControlEvent } =
      await import('../../../src/core/validation');
    expect(v.safeParse(AvatarEventSchema, { type: 'bot_ready' }).success).toBe(true);
    expect(parseAvatarEventMessage('{"type":"user_transcription"}')).toMatchObject({ ok: false, error: { code: 'invalid_event' } });
    expect(v.safeParse(ClientSessionSchema, { client_token: 'ct' }).issues?.[0]?.message).toBe(
      'Invalid key: Expected "session_id" but received undefined',
    );
    expect(() => validateControlEvent({ event: 'action', action: ' ' })).toThrow(/action: action must not be empty/);
    expect(typeof window).toBe('undefined');
  });

  it('a session engine runs a whole room flow in Node with the testing fakes', async () => {
    const { createAvatarSession } = await import('../../../src/core');
    const { createFakeProxy, FakeTransport, fakeTransportLoader } = await import('../../../src/testing');
    const proxy = createFakeProxy({ initialStatus: 'ACTIVE' });
    const fake = new FakeTransport();
    const s = createAvatarSession({
      proxyUrl: 'http://127.0.0.1:1/api',
      flow: { kind: 'room', agentId: 'a' },
      fetch: proxy.fetch,
      loadTransport: fakeTransportLoader(fake),
      pollIntervalMs: 5,
      keepAliveMs: 1000,
    });
    await s.start();
    fake.emitTrack('audio', {} as MediaStreamTrack);
    fake.emitEvent({ type: 'agent_transcription', transcription: 'hello from node' });
    await s.end();
    expect(s.store.getState()).toMatchObject({ phase: 'ended', cost: 1.25, transcript: [{ text: 'hello from node' }] });
  });
});
