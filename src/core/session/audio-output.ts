import { LiveAiError } from '../errors';

/**
 * Plays the avatar's remote audio track through an `HTMLAudioElement` the session owns, so speaker mute,
 * volume, output device and the autoplay unblock work the same on every transport.
 * Browser only: where `document` or `MediaStream` is missing every method is a no-op.
 *
 * Sound that comes back: while a track is attached, playback the browser stopped behind the page's back (an
 * interrupted audio session, a route change that paused the element, audio started while the tab was hidden) is
 * resumed when the page is shown again, after every device change (an output device that went away falls back to the
 * system default), and as soon as the element pauses while visible. A `play()` refused while the page is hidden is
 * not reported as blocked: it is retried once the page is visible, and only a refusal there (the browser truly
 * wants a gesture) reports `onBlocked(true)`.
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
  let sinkId = '';
  let unwatch = () => {};
  const hidden = () => document.visibilityState === 'hidden';

  const element = () => {
    if (!el && canPlay()) {
      const a = (el = document.createElement('audio'));
      a.autoplay = true;
      a.setAttribute('playsinline', '');
      a.muted = muted;
      a.volume = volume;
      unwatch = watch(a);
    }
    return el;
  };
  const play = (a: HTMLAudioElement) => {
    let p: Promise<void> | undefined;
    // Refused while hidden: not a gesture matter yet (Safari refuses background starts); shown again, it retries.
    const refused = (e: unknown) => isNotAllowed(e) && !hidden() && a === el && onBlocked(true);
    try {
      p = a.play() as Promise<void> | undefined;
    } catch (e) {
      refused(e);
      return;
    }
    p?.then(
      () => a === el && onBlocked(false),
      (e: unknown) => refused(e),
    );
  };
  /** Plays again if a track is attached, the element stopped and the page can play. */
  const resume = () => {
    if (el && track && track.readyState !== 'ended' && el.paused && !hidden()) play(el);
  };
  /** An output device that went away: back to the system default (the element would stay silent on it). */
  const checkSink = async () => {
    const a = el as (HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    if (!a || !sinkId || typeof a.setSinkId !== 'function' || !navigator.mediaDevices?.enumerateDevices) return;
    const list = await navigator.mediaDevices.enumerateDevices().catch(() => null);
    if (list && !list.some((d) => d.kind === 'audiooutput' && d.deviceId === sinkId)) {
      sinkId = '';
      await a.setSinkId('').catch(() => {});
    }
  };
  const watch = (a: HTMLAudioElement) => {
    const onVisibility = () => !hidden() && resume();
    const onDevices = () => void checkSink().finally(resume);
    // The browser paused it (an interruption, a route change): not us, since only destroy() pauses.
    const onPause = () => queueMicrotask(resume);
    const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    document.addEventListener('visibilitychange', onVisibility);
    devices?.addEventListener?.('devicechange', onDevices);
    a.addEventListener('pause', onPause);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      devices?.removeEventListener?.('devicechange', onDevices);
      a.removeEventListener('pause', onPause);
    };
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
      if (a && typeof a.setSinkId === 'function') {
        await a.setSinkId(deviceId);
        sinkId = deviceId;
        resume(); // some browsers pause the element while its route changes
      }
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
      unwatch();
      unwatch = () => {};
      if (el) {
        el.pause?.();
        el.srcObject = null;
      }
      el = null;
      track = null;
    },
  };
}
