import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The LiveKit adapter makes its first Room while the page is idle, once its chunk loaded ahead of the Start click;
 * the first join takes that Room instead of making one between the click and the first frame. livekit-client's Room
 * is replaced by a stand-in that counts how many were made and which one connected.
 */
const made = vi.hoisted(() => [] as Array<{ connected: string | null }>);
vi.mock('livekit-client', async (orig) => {
  const lk = await orig<typeof import('livekit-client')>();
  const { EventEmitter } = await import('node:events');
  class CountedRoom extends EventEmitter {
    connected: string | null = null;
    remoteParticipants = new Map();
    localParticipant = { publishData: async () => undefined, setMicrophoneEnabled: async () => undefined };
    constructor() {
      super();
      made.push(this);
    }
    async connect(url: string) {
      this.connected = url;
    }
    async disconnect() {
      this.emit(lk.RoomEvent.Disconnected);
    }
    async switchActiveDevice() {
      return true;
    }
  }
  return { ...lk, Room: CountedRoom };
});

const connectTo = (t: import('../../../src/core/transports/types').Transport, url: string) =>
  t.connect({ url, token: 't', eventTopic: 'liveai' });

beforeEach(() => {
  made.length = 0;
  vi.resetModules();
  vi.useFakeTimers();
  // jsdom has no WebRTC; the adapter only prepares a Room where a call can be made.
  vi.stubGlobal('RTCPeerConnection', class {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the Room made ahead of the first join', () => {
  it('is made once the page is idle after the adapter loaded, and the first join uses it', async () => {
    const { livekitTransport } = await import('../../../src/core/transports/livekit');
    const factory = await livekitTransport.load();
    expect(made).toHaveLength(0); // not inside the load itself
    await vi.runAllTimersAsync();
    expect(made).toHaveLength(1);

    const first = factory();
    await connectTo(first, 'ws://first');
    expect(made).toHaveLength(1);
    expect(made[0]!.connected).toBe('ws://first');

    // Later joins make their own Room; a second load prepares none while none is wanted.
    await first.disconnect();
    await livekitTransport.load();
    await connectTo(factory(), 'ws://second');
    await vi.runAllTimersAsync();
    expect(made.map((r) => r.connected)).toEqual(['ws://first', 'ws://second']);
  });

  it('a join before the page was idle makes its Room, and none is left over', async () => {
    const { livekitTransport } = await import('../../../src/core/transports/livekit');
    const factory = await livekitTransport.load();
    await connectTo(factory(), 'ws://early');
    await vi.runAllTimersAsync();
    expect(made.map((r) => r.connected)).toEqual(['ws://early']);
  });
});
