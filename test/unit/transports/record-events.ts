// What a transport adapter emitted, by event name, in order: the unit tests of both adapters read it.
import type { Transport, TransportEventMap } from '../../../src/core';

export type EventLog = { [K in keyof TransportEventMap]?: TransportEventMap[K][] };

const NAMES = [
  'event',
  'invalidMessage',
  'track',
  'connection',
  'disconnected',
  'mic',
  'transcription',
  'agentState',
  'speaking',
  'micTrack',
  'avatarLeft',
] as const satisfies readonly (keyof TransportEventMap)[];

/** Records every event `t` emits from now on. */
export function recordEvents(t: Pick<Transport, 'on'>): EventLog {
  const log: EventLog = {};
  for (const k of NAMES) (t.on as (k: string, h: (p: unknown) => void) => void)(k, (p) => void ((log[k] ??= []) as unknown[]).push(p));
  return log;
}
