import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  localStorage.removeItem('liveai-kit.transport');
  vi.doUnmock('@daily-co/daily-js');
  vi.resetModules();
});

describe('transport registration', () => {
  it('without a registered transport, joining a room says what to install and what to import', async () => {
    const { loadTransport } = await import('../../../src/core/transports/choose');
    await expect(loadTransport('rtc-a')).rejects.toMatchObject({
      code: 'missing_peer',
      detail: expect.stringMatching(/npm i livekit-client.*import 'liveai-kit\/livekit';/),
    });
    await expect(loadTransport('rtc-b')).rejects.toMatchObject({
      code: 'missing_peer',
      detail: expect.stringMatching(/npm i @daily-co\/daily-js.*import 'liveai-kit\/daily';/),
    });
  });

  it('importing a transport entry registers only that transport, and its adapter loads on first use', async () => {
    await import('../../../src/core/transports/livekit');
    const { loadTransport, registeredTransports } = await import('../../../src/core/transports/choose');
    expect(registeredTransports()).toEqual(['rtc-a']);
    const a = await loadTransport('rtc-a');
    expect(a().kind).toBe('rtc-a');
    await expect(loadTransport('rtc-b')).rejects.toMatchObject({ code: 'missing_peer' });
    await import('../../../src/core/transports/daily');
    expect((await loadTransport('rtc-b'))().kind).toBe('rtc-b');
  });

  it('a registered transport whose SDK is missing becomes missing_peer with the install command', async () => {
    vi.doMock('@daily-co/daily-js', () => {
      throw new Error("Cannot find package '@daily-co/daily-js'");
    });
    await import('../../../src/core/transports/daily');
    const { loadTransport } = await import('../../../src/core/transports/choose');
    await expect(loadTransport('rtc-b')).rejects.toMatchObject({
      code: 'missing_peer',
      detail: expect.stringContaining('npm i @daily-co/daily-js'),
    });
  });

  it('predicts the transport of the next hosted room: the only one registered, else the one the last session joined', async () => {
    const { registerTransport } = await import('../../../src/core/transports/choose');
    const { predictTransport } = await import('../../../src/core/transports/choose');
    const fake = (kind: 'rtc-a' | 'rtc-b') => ({ kind, load: async () => () => ({ kind }) as never });
    expect(predictTransport()).toBeNull(); // nothing registered: nothing to fetch
    registerTransport(fake('rtc-b'));
    expect(predictTransport()).toBe('rtc-b');
    registerTransport(fake('rtc-a'));
    expect(predictTransport()).toBeNull(); // two registered, no history: never fetch one the page may not use
    const { loadTransport } = await import('../../../src/core/transports/choose');
    (await loadTransport('rtc-a'))(); // a session joins a LiveKit room
    expect(predictTransport()).toBe('rtc-a');
    const { transportHint } = await import('../../../src/core/transports/choose');
    expect(transportHint({ flow: { kind: 'room', agentId: 'a' } })).toBe('rtc-a');
    expect(transportHint({ flow: { kind: 'room', agentId: 'a' }, transport: 'rtc-b' })).toBe('rtc-b');
  });
});
