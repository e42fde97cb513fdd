import { useEffect, useState } from 'react';
import type { CallStats } from '../core/index';
import { useAvatarSession, useSessionState } from './session';

/**
 * The received call quality, sampled every `intervalMs` (default 2000) while the room is connected and a component
 * uses the hook: round-trip time (ms), jitter (ms), packet loss (%), received fps and bitrate (kbit/s), from the
 * browser's WebRTC statistics on LiveKit and daily-js's network statistics on Daily (which gives no fps: null).
 * null before the first sample, which comes `intervalMs` after the connection (nothing is read while the call is being
 * set up), and outside a connected room. Pair it with `callQuality(stats)` for one word.
 * @public
 */
export function useCallStats({ intervalMs = 2000 }: { intervalMs?: number } = {}): CallStats | null {
  const session = useAvatarSession();
  const connected = useSessionState((s) => s.media.connection === 'connected');
  const [stats, setStats] = useState<CallStats | null>(null);
  useEffect(() => {
    if (!connected) return;
    let live = true;
    const sample = () => void session.getCallStats().then((s) => live && setStats(s));
    // The first sample comes one interval after the connection, not at once: reading statistics while the call is
    // still being set up costs the page time before the first frame and tells little (no rates yet).
    const timer = setInterval(sample, Math.max(250, intervalMs));
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [session, connected, intervalMs]);
  return connected ? stats : null;
}
