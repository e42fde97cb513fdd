import { LiveAiError } from '../errors';

/**
 * Plays the avatar's remote audio track through an `HTMLAudioElement` the session owns, so speaker mute,
 * volume, output device and the autoplay unblock work the same on every transport.
 * Browser only: where `document` or `MediaStream` is missing every method is a no-op.
 */
export interface AudioOutput {
  /** Plays `track` (or stops with null, which ends a blocked state). A blocked `play()` reports `onBlocked(true)`. */
  attach(track: MediaStreamTrack | null): void;
  /** Re-binds the current track and plays again (after a reconnect). */
  reattach(): void;
  /**
   * Creates the element and calls `play()` on it at once; call synchronously inside a user gesture (the start
   * click) so browsers that tie autoplay to the element (iOS Safari) also allow the track that arrives later.
   */
  prime(): void;
  setMuted(muted: boolean): void;
  /** Volume 0..1. */
  setVolume(volume: number): void;
  /** Output device (`setSinkId`, where the browser has it). */
  setSinkId(deviceId: string): Promise<void>;
  /** Retries `play()`; call from a user gesture. Rejects with `autoplay_blocked` if still refused. */
  unblock(): Promise<void>;
  destroy(): void;
}

const canPlay = () => typeof document !== 'undefined' && typeof MediaStream !== 'undefined';
const isNotAllowed = (e: unknown) => (e as { name?: string } | null)?.name === 'NotAllowedError';

/** Creates the audio output; `onBlocked` reports autoplay blocking and its end. */
export function createAudioOutput(onBlocked: (blocked: boolean) => void, initial: { muted: boolean; volume: number }): AudioOutput {
  let el: HTMLAudioElement | null = null;
  let track: MediaStreamTrack | null = null;
  let muted = initial.muted;
  let volume = initial.volume;

  const element = () => {
    if (!el && canPlay()) {
      el = document.createElement('audio');
      el.autoplay = true;
      el.setAttribute('playsinline', '');
      el.muted = muted;
      el.volume = volume;
    }
    return el;
  };
  const play = (a: HTMLAudioElement) => {
    let p: Promise<void> | undefined;
    try {
      p = a.play() as Promise<void> | undefined;
    } catch (e) {
      if (isNotAllowed(e)) onBlocked(true);
      return;
    }
    p?.then(
      () => onBlocked(false),
      (e: unknown) => isNotAllowed(e) && onBlocked(true),
    );
  };
  const bind = () => {
    const a = element();
    if (!a) return;
    a.srcObject = track ? new MediaStream([track]) : null;
    if (track) play(a);
  };

  return {
    attach(next) {
      track = next;
      bind();
      if (!next) onBlocked(false);
    },
    reattach() {
      if (track) bind();
    },
    prime() {
      const a = element();
      if (!a || track) return;
      try {
        (a.play() as Promise<void> | undefined)?.catch(() => {});
      } catch {
        // Not allowed or no source yet: the later track retries play().
      }
    },
    setMuted(m) {
      muted = m;
      if (el) el.muted = m;
    },
    setVolume(v) {
      volume = v;
      if (el) el.volume = v;
    },
    async setSinkId(deviceId) {
      const a = element() as (HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> }) | null;
      if (a && typeof a.setSinkId === 'function') await a.setSinkId(deviceId);
    },
    async unblock() {
      if (!el || !track) return onBlocked(false);
      try {
        await el.play();
        onBlocked(false);
      } catch (cause) {
        if (isNotAllowed(cause))
          throw new LiveAiError('autoplay_blocked', 'audio still blocked: call unblockAudio() from a click or tap', { cause });
        throw cause;
      }
    },
    destroy() {
      if (el) {
        el.pause?.();
        el.srcObject = null;
      }
      el = null;
      track = null;
    },
  };
}
