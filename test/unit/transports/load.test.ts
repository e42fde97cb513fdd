import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('@daily-co/daily-js');
  vi.resetModules();
});

describe('loadTransport', () => {
  it('loads each adapter lazily and returns a factory of the right kind', async () => {
    const { loadTransport } = await import('../../../src/core/transports/load');
    const factory = await loadTransport('rtc-b');
    expect(typeof factory).toBe('function');
    const a = await loadTransport('rtc-a');
    expect(a().kind).toBe('rtc-a');
  });
  it('a missing SDK becomes missing_peer with an install hint', async () => {
    vi.doMock('@daily-co/daily-js', () => {
      throw new Error("Cannot find package '@daily-co/daily-js'");
    });
    const { loadTransport } = await import('../../../src/core/transports/load');
    await expect(loadTransport('rtc-b')).rejects.toMatchObject({ code: 'missing_peer', detail: 'install @daily-co/daily-js: npm i @daily-co/daily-js' });
  });
});
