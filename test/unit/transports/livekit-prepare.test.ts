import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The LiveKit adapter makes its first Room while the page is idle, once its chunk loaded ahead of the Start click;
 * the first join takes that Room instead of making one between the click and the first frame. livekit-client's Room
 * is replaced by a stand-in that counts how many were made and which one connected.
 */
const made = vi.hoisted(() => [] as Array<{ connected: string | null }>);
/** The URLs livekit-client's `Room.prepareConnection` was called with. */
const prepares = vi.hoisted(() => [] as string[]);
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
    async prepareConnection(url: string) {
      prepares.push(url);
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
  prepares.length = 0;
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

describe('warming the connection to a LiveKit server known before the click', () => {
  it('prepares each server once, on the Room the first join then takes', async () => {
    const { livekitTransport } = await import('../../../src/core/transports/livekit');
    const factory = await livekitTransport.load();
    livekitTransport.prepare!('wss://lk.example.test');
    livekitTransport.prepare!('wss://lk.example.test'); // hover, then focus: one warm-up
    await vi.runAllTimersAsync();
    expect(prepares).toEqual(['wss://lk.example.test']);
    expect(made).toHaveLength(1); // the idle-time Room is that one, not a second

    await connectTo(factory(), 'wss://lk.example.test');
    expect(made.map((r) => r.connected)).toEqual(['wss://lk.example.test']);
  });

  it('a join to another server makes no use of the warm-up and triggers none', async () => {
    const { livekitTransport } = await import('../../../src/core/transports/livekit');
    livekitTransport.prepare!('wss://lk.example.test');
    const factory = await livekitTransport.load();
    await vi.runAllTimersAsync();
    await connectTo(factory(), 'wss://other.example.test');
    expect(prepares).toEqual(['wss://lk.example.test']);
  });

  it('outside a browser that can make calls, nothing is prepared', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const { livekitTransport } = await import('../../../src/core/transports/livekit');
    livekitTransport.prepare!('wss://lk.example.test');
    await vi.runAllTimersAsync();
    expect(prepares).toEqual([]);
    expect(made).toEqual([]);
  });
});
