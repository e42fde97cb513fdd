import {
  type AppMessage,
  type AvatarEvent,
  type CallStats,
  type ConnectionState,
  type ConnectOptions,
  LiveAiError,
  type MediaTransport,
  type Transport,
  type TransportEventMap,
  type TransportLoader,
} from '../core/index';
import { parseAvatarEventMessage } from '../core/validation';
import { createEventBus } from '../core/internal';

/**
 * Options of `FakeTransport`.
 * @public
 */
export interface FakeTransportOptions {
  kind?: MediaTransport;
  /** Connect at once (default true). With false, `connect()` waits for `completeConnect()` / `failConnect()`. */
  autoConnect?: boolean;
}

/**
 * An in-memory `Transport` for tests and stories (`liveai-kit/testing`). Drive it with `emitEvent`, `emitRaw`, `emitRoom`,
 * `emitTrack`, `setConnection`, `dropConnection`; inspect `sentMessages`, `connectCalls`, `devices`, `micEnabled`.
 * @public
 */
export class FakeTransport implements Transport {
  readonly kind: MediaTransport;
  readonly sentMessages: AppMessage[] = [];
  readonly connectCalls: Omit<ConnectOptions, 'signal'>[] = [];
  readonly devices: { kind: string; deviceId: string }[] = [];
  micEnabled = false;
  connection: ConnectionState = 'disconnected';
  disconnectCalls = 0;
  /** What `getStats()` answers while connected. */
  stats: CallStats | null = null;
  private readonly bus = createEventBus<TransportEventMap>();
  private readonly autoConnect: boolean;
  private pending: { resolve: () => void; reject: (e: unknown) => void } | null = null;

  constructor(options: FakeTransportOptions = {}) {
    this.kind = options.kind ?? 'rtc-a';
    this.autoConnect = options.autoConnect ?? true;
  }

  async connect(options: ConnectOptions): Promise<void> {
    const { signal, ...rest } = options;
    this.connectCalls.push(rest);
    if (signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled');
    this.setConnection('connecting');
    if (!this.autoConnect) {
      await new Promise<void>((resolve, reject) => {
        this.pending = { resolve, reject };
        signal?.addEventListener('abort', () => reject(new LiveAiError('aborted', 'join was cancelled')), { once: true });
      });
    }
    this.setConnection('connected');
    if (options.micEnabled) await this.setMicEnabled(true);
  }
  /** Finishes a held `connect()` (autoConnect false). */
  completeConnect(): void {
    this.pending?.resolve();
    this.pending = null;
  }
  /** Fails a held `connect()` with `transport_failed`. */
  failConnect(detail = 'could not join the room'): void {
    this.setConnection('disconnected');
    this.pending?.reject(new LiveAiError('transport_failed', detail));
    this.pending = null;
  }
  async disconnect(): Promise<void> {
    this.disconnectCalls++;
    if (this.connection === 'disconnected') return;
    this.setConnection('disconnected');
    this.bus.emit('disconnected', { reason: 'client' });
  }
  async sendAppMessage(message: AppMessage): Promise<void> {
    if (this.connection !== 'connected') throw new LiveAiError('transport_failed', 'not connected to the room');
    this.sentMessages.push(message);
  }
  async setMicEnabled(enabled: boolean): Promise<void> {
    this.micEnabled = enabled;
    this.bus.emit('mic', { enabled });
  }
  async setDevice(kind: 'audioinput' | 'audiooutput' | 'videoinput', deviceId: string): Promise<void> {
    this.devices.push({ kind, deviceId });
  }
  async getStats(): Promise<CallStats | null> {
    return this.connection === 'connected' ? this.stats : null;
  }
  on<K extends keyof TransportEventMap>(name: K, handler: (payload: TransportEventMap[K]) => void): () => void {
    return this.bus.on(name, handler);
  }

  /** Delivers a service event as the adapter would (validated: an invalid object becomes `invalidMessage`). */
  emitEvent(event: AvatarEvent): void {
    this.emitRaw(event);
  }
  /** Delivers any raw message (bytes, JSON text or object) through the same parser the adapters use. */
  emitRaw(data: unknown): void {
    const parsed = parseAvatarEventMessage(data);
    if (parsed.ok) this.bus.emit('event', parsed.event);
    else this.bus.emit('invalidMessage', { error: parsed.error, raw: data });
  }
  /** The avatar's track appears (a track) or goes away (null). */
  emitTrack(kind: 'video' | 'audio', track: MediaStreamTrack | null): void {
    this.bus.emit('track', { kind, track });
  }
  /**
   * The agent's state (`agentState`), who is speaking (`speaking`), the microphone track (`micTrack`) or the avatar
   * having left the room (`avatarLeft`), as an adapter reports it.
   */
  emitRoom<K extends 'agentState' | 'speaking' | 'micTrack' | 'avatarLeft'>(name: K, payload: TransportEventMap[K]): void {
    this.bus.emit(name, payload);
  }
  setConnection(state: ConnectionState): void {
    this.connection = state;
    this.bus.emit('connection', state);
  }
  /** Loses the room for good, as a network failure would (`disconnected` with `transport_failed`). */
  dropConnection(detail = 'the room connection was lost'): void {
    this.setConnection('disconnected');
    this.bus.emit('disconnected', { reason: 'network', error: new LiveAiError('transport_failed', detail) });
  }
  /** Number of subscribed handlers (leak checks). */
  listenerCount(): number {
    return this.bus.count();
  }
}

/**
 * A `TransportLoader` that hands out `fake` (or a new transport from a factory for each join) for every kind.
 * `loader.kinds` records the kinds requested.
 * @public
 */
export function fakeTransportLoader(fake: FakeTransport | (() => Transport)): TransportLoader & { kinds: MediaTransport[] } {
  const kinds: MediaTransport[] = [];
  const loader = async (kind: MediaTransport) => {
    kinds.push(kind);
    return typeof fake === 'function' ? fake : () => fake;
  };
  return Object.assign(loader, { kinds });
}
