import { useEffect, useState } from 'react';
import { useSessionState } from './session';

/**
 * Whose audio to measure: the avatar's (what the user hears) or the user's microphone (as published in the room).
 * @public
 */
export type AudioLevelSource = 'avatar' | 'microphone';

const NONE: number[] = [];

/** Level and bands of `source`'s current track; the meter loads with the first track. */
function useMeter(source: AudioLevelSource, bands: number): { level: number; bands: number[] } {
  const track = useSessionState((s) => (source === 'avatar' ? s.media.audioTrack : s.media.micTrack));
  type Measured = { track: MediaStreamTrack | null; level: number; bands: number[] };
  const [value, setValue] = useState<Measured>({ track: null, level: 0, bands: NONE });
  useEffect(() => {
    if (!track || typeof window === 'undefined') return;
    let stop: (() => void) | null = null;
    let live = true;
    import('./audio-meter').then(
      (m) => {
        if (live) stop = m.meterTrack(track, bands, (level, b) => setValue({ track, level, bands: b }));
      },
      () => {},
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [track, bands]);
  // A value measured on an earlier track is not shown for the current one.
  return track && value.track === track ? value : { level: 0, bands: NONE };
}

/**
 * The audio level of the avatar or of the user's microphone, 0–1 (-60 dBFS and below is 0, full scale is 1),
 * updated at most once per animation frame while it changes. Measured with the Web Audio API on the track the
 * session already has: no second playback, no second microphone capture. 0 while there is no track (not in a call,
 * microphone off). The audio context is closed when the component unmounts or the track changes.
 * @public
 */
export function useAudioLevel(source: AudioLevelSource): number {
  return useMeter(source, 0).level;
}

/**
 * Like `useAudioLevel`, in `count` frequency bands (0–1 each, low to high over 100 Hz–4 kHz), for bar
 * visualizers. Returns an empty array while there is no track.
 * @public
 */
export function useAudioBands(source: AudioLevelSource, count: number): number[] {
  return useMeter(source, Math.max(1, Math.floor(count))).bands;
}
