import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeTransport, createFakeProxy } from '../../../src/testing';
import { harness, type Harness, useFakeClock } from './helpers';

/** Issue 40.5: session.interrupt() goes to the transport's interrupt, and says plainly where there is none. */
let h: Harness | undefined;
beforeEach(() => void useFakeClock());
afterEach(() => {
  h?.session.dispose({ end: false });
  h = undefined;
  vi.useRealTimers();
});

describe('session.interrupt()', () => {
  it('asks the room to stop the avatar (a LiveKit agent room)', async () => {
    const fake = Object.assign(new FakeTransport(), {
      interrupts: 0,
      async interrupt() {
        fake.interrupts++;
      },
    });
    h = harness({ fake, proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.start();
    await h.session.interrupt();
    expect(fake.interrupts).toBe(1);
  });

  it('a room that cannot interrupt (hosted): invalid_request; before the call: transport_failed', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await expect(h.session.interrupt()).rejects.toMatchObject({ code: 'transport_failed' });
    await h.session.start();
    await expect(h.session.interrupt()).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(/not available/) });
  });
});
