import { LiveAiError } from '../errors';
import { blobToArrayBuffer } from '../image/blob';
import { PCM_FRAME_MS } from './format';

/**
 * Something with the AudioBuffer shape (a decoded clip).
 * @public
 */
export interface AudioBufferLike {
  sampleRate: number;
  numberOfChannels: number;
  getChannelData(channel: number): Float32Array;
}
/**
 * A WebSocket constructor: the browser's global `WebSocket`, or one with the same shape (for example the `ws`
 * package's in Node). Called as `new WebSocket(url)`.
 * @public
 */
export type WebSocketCtor = new (url: string) => WebSocket;
/**
 * An AudioContext constructor: the browser's global `AudioContext`, or one with the same shape. Called as
 * `new AudioContext()` to decode an audio file or capture a microphone.
 * @public
 */
export type AudioContextCtor = new () => AudioContext;

/**
 * Options of `streamPcmToWebSocket`.
 * @public
 */
export interface StreamPcmOptions {
  /** The session's `websocket_address` (websocket-* transports). */
  address: string;
  /** A decoded clip, an audio file (decoded with an AudioContext), or a live microphone stream. */
  source: AudioBufferLike | Blob | ArrayBuffer | MediaStream;
  /** Leave the socket open when a clip has been sent (default false: close with 1000). */
  keepOpen?: boolean;
  /** Aborting it stops the stream, as `stop()` does. */
  signal?: AbortSignal;
  /** The WebSocket to open (tests, Node with `ws`); default the global `WebSocket`. */
  WebSocket?: WebSocketCtor;
  /** The AudioContext that decodes an audio file or captures a microphone; default the global `AudioContext`. */
  AudioContext?: AudioContextCtor;
}

/**
 * A running stream: `stop()` ends it early; `done` settles when everything is sent or it stopped.
 * @public
 */
export interface PcmStream {
  stop(): void;
  done: Promise<void>;
  /** Frames (640 bytes, 20 ms each) sent so far. */
  readonly framesSent: number;
}

const isBufferLike = (s: unknown): s is AudioBufferLike =>
  !!s && typeof (s as AudioBufferLike).getChannelData === 'function' && typeof (s as AudioBufferLike).sampleRate === 'number';
const isStream = (s: unknown): s is MediaStream => !!s && typeof (s as MediaStream).getAudioTracks === 'function';

/**
 * Streams audio to a websocket-* session: 16 kHz mono PCM16 little-endian, binary frames of
 * 20 ms (640 bytes). Clips are paced in real time (frame n leaves at start + n·20 ms); a microphone is sent as it is
 * captured. `done` rejects with `transport_failed` when the socket fails or closes early, `invalid_request` when the
 * source cannot be decoded or no AudioContext/WebSocket exists; `stop()` and `signal` resolve it.
 * @public
 */
export function streamPcmToWebSocket(o: StreamPcmOptions): PcmStream {
  let stopped = false;
  let framesSent = 0;
  let ws: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | null = null;
  let teardown: (() => void) | null = null;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    wake?.();
    teardown?.();
    if (ws && ws.readyState <= 1) ws.close(1000);
  };
  o.signal?.addEventListener('abort', stop, { once: true });
  const sleep = (ms: number) => new Promise<void>((resolve) => ((wake = resolve), (timer = setTimeout(resolve, ms))));
  const AC = () => {
    const C = o.AudioContext ?? (globalThis as { AudioContext?: AudioContextCtor }).AudioContext;
    if (!C) throw new LiveAiError('invalid_request', 'an AudioContext is needed to decode or capture audio');
    return new C();
  };

  const done = (async () => {
    const WS = o.WebSocket ?? (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
    if (!WS) throw new LiveAiError('invalid_request', 'no WebSocket implementation is available');
    // The conversion and capture code is its own chunk, loaded when a stream starts (most pages never stream PCM).
    const { streamMicrophone, toPcmFrames } = await import('./pcm');
    if (stopped) return;
    const socket = (ws = new WS(o.address));
    socket.binaryType = 'arraybuffer';
    let failure: LiveAiError | null = null;
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new LiveAiError('transport_failed', 'the audio websocket failed to open'));
      socket.onclose = () => reject(new LiveAiError('transport_failed', 'the audio websocket closed before opening'));
    });
    socket.onerror = () => (failure ??= new LiveAiError('transport_failed', 'the audio websocket failed'));
    socket.onclose = () => {
      if (!stopped) failure ??= new LiveAiError('transport_failed', 'the audio websocket closed early');
      stop();
    };
    const send = (frame: Uint8Array) => {
      if (stopped || socket.readyState !== 1) return;
      socket.send(frame);
      framesSent++;
    };

    if (isStream(o.source)) {
      await streamMicrophone(
        o.source,
        AC(),
        send,
        (t) => (teardown = t),
        () => stopped,
      );
    } else {
      let buffer: AudioBufferLike;
      if (isBufferLike(o.source)) buffer = o.source;
      else {
        const ctx = AC();
        try {
          const bytes = o.source instanceof ArrayBuffer ? o.source : await blobToArrayBuffer(o.source as Blob);
          buffer = await ctx.decodeAudioData(bytes.slice(0));
        } catch (cause) {
          throw new LiveAiError('invalid_request', 'the audio could not be decoded', { cause });
        } finally {
          void ctx.close?.().catch(() => {});
        }
      }
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) => buffer.getChannelData(i));
      const frames = toPcmFrames(channels, buffer.sampleRate);
      const start = Date.now();
      for (let i = 0; i < frames.length && !stopped; i++) {
        const wait = start + i * PCM_FRAME_MS - Date.now();
        if (wait > 0) await sleep(wait);
        send(frames[i]!);
      }
      if (!o.keepOpen) stop();
    }
    if (failure) throw failure;
  })();
  done.catch(() => stop());
  return {
    stop,
    done,
    get framesSent() {
      return framesSent;
    },
  };
}
