import type { CallStats } from './types';

/** Running totals of the received media, kept between samples for rates. */
interface Totals {
  at: number;
  bytes: number;
  received: number;
  lost: number;
  frames: number;
}

/** Calls closer together than this (ms) share one sample: every `useCallStats()` on a page asks on its own timer. */
const MIN_SAMPLE_MS = 500;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Reads `CallStats` from the browser's WebRTC statistics (`RTCStatsReport`s of the receivers of the avatar's
 * tracks): round-trip time from the selected candidate pair, jitter, loss, bitrate and fps from the inbound RTP
 * streams. Rates (loss, bitrate, fps where the browser gives no `framesPerSecond`) are since the previous sample; a
 * call within 500 ms of the last sample gets that sample again, so several readers of one session see the same rates.
 */
export function createStatsReader(): (reports: Iterable<RTCStatsReport>, now?: number) => CallStats {
  let prev: Totals | null = null;
  let last: CallStats | null = null;
  return (reports, at = Date.now()) => {
    if (last && prev && at >= prev.at && at - prev.at < MIN_SAMPLE_MS) return last;
    const inbound = new Map<string, Record<string, unknown>>();
    let rtt: number | null = null;
    for (const report of reports)
      report.forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp') inbound.set(String(s.id), s);
        else if (s.type === 'candidate-pair' && s.state === 'succeeded' && s.nominated !== false) {
          const r = num(s.currentRoundTripTime);
          if (r !== null) rtt = Math.max(rtt ?? 0, r * 1000);
        }
      });
    const now: Totals = { at, bytes: 0, received: 0, lost: 0, frames: 0 };
    let jitter: number | null = null;
    let fps: number | null = null;
    for (const s of inbound.values()) {
      now.bytes += num(s.bytesReceived) ?? 0;
      now.received += num(s.packetsReceived) ?? 0;
      now.lost += Math.max(0, num(s.packetsLost) ?? 0);
      const j = num(s.jitter);
      if (j !== null) jitter = Math.max(jitter ?? 0, j * 1000);
      if (s.kind === 'video') {
        now.frames += num(s.framesDecoded) ?? 0;
        fps = num(s.framesPerSecond) ?? fps;
      }
    }
    const p = prev && prev.at < at ? prev : null;
    prev = now;
    const seconds = p ? (at - p.at) / 1000 : 0;
    const lost = now.lost - (p?.lost ?? 0);
    const expected = lost + now.received - (p?.received ?? 0);
    return (last = {
      rttMs: rtt,
      jitterMs: jitter,
      packetLossPct: inbound.size && expected > 0 ? (100 * Math.max(0, lost)) / expected : inbound.size ? 0 : null,
      fps: fps ?? (p && now.frames ? (now.frames - p.frames) / seconds : null),
      bitrateKbps: p && inbound.size ? Math.max(0, (now.bytes - p.bytes) * 8) / 1000 / seconds : null,
      at,
    });
  };
}
