import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTransportRegistry, pageTransports, type TransportMemory, type TransportModule } from '../../../src/core';
import { FakeTransport, createFakeProxy } from '../../../src/testing';
import { harness, settle, until, useFakeClock, type Harness } from '../core/helpers';

const sessions: Harness[] = [];
beforeEach(() => {
  useFakeClock();
  vi.stubGlobal('RTCPeerConnection', function RTCPeerConnection() {});
});
afterEach(() => {
  for (const h of sessions.splice(0)) h.session.dispose({ end: false });
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A transport module whose adapter is `fake`, counting its loads. */
const fakeModule = (fake: FakeTransport, kind: 'rtc-a' | 'rtc-b' = 'rtc-b') => {
  const loads: string[] = [];
  const module: TransportModule = { kind, load: async () => (loads.push(kind), () => fake) };
  return { module, loads };
};
const memory = (): TransportMemory & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
};

describe('transport registries are values: two sessions never see each other’s transports', () => {
  it('a session joins with its own registry; another with an empty one gets missing_peer; the page’s registry is untouched', async () => {
    const fake = new FakeTransport();
    const { module, loads } = fakeModule(fake);
    const mine = memory();
    const a = harness({ loadTransport: undefined, transports: createTransportRegistry({ transports: [module], memory: mine }) });
    const b = harness({ loadTransport: undefined, transports: createTransportRegistry() });
    sessions.push(a, b);
    const pageKinds = pageTransports.kinds();

    const started = settle(a.session.start());
    await until(() => fake.connectCalls.length === 1, 'A joined through its registry');
    expect(loads).toEqual(['rtc-b']);
    expect(mine.items.get('liveai-kit.transport')).toBe('rtc-b'); // its prediction memory, not localStorage

    const failed = await settle(b.session.start());
    expect(failed).toMatchObject({ code: 'missing_peer' });
    expect((failed as { detail: string }).detail).toMatch(/npm i @daily-co\/daily-js/);
    expect(loads).toEqual(['rtc-b']); // B never loaded A's adapter
    expect(pageTransports.kinds()).toEqual(pageKinds);
    a.session.dispose({ end: false });
    expect(await started).toMatchObject({ code: 'aborted' });
  });

  it('a registry predicts only from its own memory; without one it predicts nothing but its only transport', () => {
    const fake = new FakeTransport();
    const withMemory = memory();
    withMemory.setItem('liveai-kit.transport', 'rtc-a');
    const both = [fakeModule(fake, 'rtc-a').module, fakeModule(fake, 'rtc-b').module];
    expect(createTransportRegistry({ transports: both, memory: withMemory }).last(['rtc-a', 'rtc-b'])).toBe('rtc-a');
    expect(createTransportRegistry({ transports: both }).last(['rtc-a', 'rtc-b'])).toBeNull();
  });

  it('prefetch() loads the adapter from the session’s registry', async () => {
    const fake = new FakeTransport();
    const { module, loads } = fakeModule(fake);
    const h = harness({
      loadTransport: undefined,
      transports: createTransportRegistry({ transports: [module] }),
      proxy: createFakeProxy(),
    });
    sessions.push(h);
    h.session.prefetch();
    await until(() => loads.length === 1, 'adapter prefetched');
  });
});
