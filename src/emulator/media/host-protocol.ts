/**
 * Messages between the emulator and its avatar host processes (`host.ts`), over Node's IPC channel with
 * `serialization: 'advanced'` (structured clone: typed arrays pass as they are). Types only.
 */
import type { AvatarMediaOptions, Demeanour } from './types';

/** `joinAvatar` options without the callbacks (functions cannot cross a process boundary). */
export type HostJoinOptions = Omit<
  AvatarMediaOptions,
  'onAppMessage' | 'onParticipantJoined' | 'onDisconnected' | 'onAgentAudio' | 'onWarning' | 'onOutage'
>;

/** A method call on one avatar: `call` numbers the answer. */
export type HostCall =
  | { method: 'publishEvent'; args: [event: { type: string; [k: string]: unknown }, to?: string[]] }
  | { method: 'speak'; args: [text: string] }
  | { method: 'setImage'; args: [image: Uint8Array] }
  | { method: 'rejoin'; args: [] }
  | { method: 'close'; args: [] };

/** Emulator → host. */
export type ToHost =
  | { t: 'join'; id: number; options: HostJoinOptions }
  | ({ t: 'call'; id: number; call: number } & HostCall)
  | { t: 'playPcm'; id: number; samples: Int16Array }
  | { t: 'setDemeanour'; id: number; demeanour: Demeanour }
  | { t: 'playAction'; id: number; name: string };

/** An error carried across: a `LiveAiError`'s code and detail, or a plain message. */
export interface HostError {
  code?: string;
  message: string;
}

/** The callbacks of `AvatarMediaOptions` a host reports, with their arguments. */
export type HostCallback =
  | { name: 'onAppMessage'; args: [message: unknown, fromIdentity: string] }
  | { name: 'onParticipantJoined'; args: [identity: string] }
  | { name: 'onDisconnected'; args: [reason: string] }
  | { name: 'onAgentAudio'; args: [] }
  | { name: 'onWarning'; args: [text: string] }
  | { name: 'onOutage'; args: [active: boolean] };

/** Host → emulator. `stats` comes every second for every avatar the host runs: [id, framesSent, fps]. */
export type FromHost =
  | { t: 'ready' }
  | { t: 'joined'; id: number; identity: string }
  | { t: 'joinFailed'; id: number; error: HostError }
  | { t: 'result'; call: number; error?: HostError }
  | ({ t: 'callback'; id: number } & HostCallback)
  | { t: 'stats'; list: Array<[id: number, framesSent: number, fps: number]> };
