/** Default LiveKit server of the emulator (the one `livekit-server --dev` starts). */
export const DEFAULT_LIVEKIT_URL = 'ws://127.0.0.1:7880';

/**
 * True when a LiveKit server answers HTTP at `url` (`ws://` → `http://`, `wss://` → `https://`) within `timeoutMs`.
 * Any HTTP answer counts; a refused connection, a DNS failure or a time-out does not.
 */
export async function livekitReachable(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(url.replace(/^ws(s?):/i, 'http$1:'), { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** What the bin prints when the LiveKit server cannot be reached: how to start one, and how to go on without media. */
export function livekitHelp(url: string): string {
  return [
    `no LiveKit server answers at ${url}.`,
    '  To run the avatar with video and audio, start one, e.g. `livekit-server --dev` (https://docs.livekit.io/home/self-hosting/local/),',
    '  or point to yours with --livekit-url, --livekit-api-key and --livekit-api-secret.',
    '  Without one, pass --media off: sessions still go ACTIVE and every REST call and event works, with no room to join.',
  ].join('\n');
}
