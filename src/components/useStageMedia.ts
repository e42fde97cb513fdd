import { useCallback, useEffect, useRef, useState } from 'react';

/** Puts one track into a media element (or clears it); no-op where `MediaStream` does not exist (SSR, jsdom). */
function attach(el: HTMLMediaElement | null, track: MediaStreamTrack | null | undefined): boolean {
  if (!el || typeof MediaStream === 'undefined') return false;
  const current = el.srcObject as MediaStream | null;
  if (!track) {
    if (current) el.srcObject = null;
    return false;
  }
  if (current?.getTracks()[0] !== track) el.srcObject = new MediaStream([track]);
  return true;
}

const play = (el: HTMLMediaElement | null) => Promise.resolve().then(() => el?.play());

/**
 * Attaches the avatar's MediaStreamTracks to one video and ONE persistent audio element (so an iOS
 * unlock by a tap also covers a track that arrives later), applies mute/volume (0..1), and notices
 * when the browser blocks audio autoplay (`NotAllowedError`). `unblock()` must run inside a click.
 */
export function useStageMedia(opts: {
  videoTrack?: MediaStreamTrack | null;
  audioTrack?: MediaStreamTrack | null;
  speakerMuted?: boolean;
  volume?: number;
  onAudioBlocked?: () => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [blocked, setBlocked] = useState(false);
  const onBlocked = useRef(opts.onAudioBlocked);
  onBlocked.current = opts.onAudioBlocked;
  const { videoTrack, audioTrack, speakerMuted = false, volume = 1 } = opts;

  useEffect(() => {
    if (attach(video.current, videoTrack)) play(video.current).catch(() => undefined);
  }, [videoTrack]);
  useEffect(() => {
    if (!attach(audio.current, audioTrack)) return;
    play(audio.current).then(
      () => setBlocked(false),
      (e: unknown) => {
        if ((e as { name?: string } | null)?.name !== 'NotAllowedError') return;
        setBlocked(true);
        onBlocked.current?.();
      },
    );
  }, [audioTrack]);
  useEffect(() => {
    if (!audio.current) return;
    audio.current.muted = speakerMuted;
    audio.current.volume = Math.min(1, Math.max(0, volume));
  }, [speakerMuted, volume]);

  const unblock = useCallback(() => {
    setBlocked(false);
    audio.current?.play()?.catch(() => undefined);
  }, []);
  return { video, audio, blocked, unblock };
}
