/**
 * Which remote participant of a room is the avatar, for both transport adapters. No SDK is imported here, so the
 * Daily chunk does not pull in livekit-client.
 */
/** Participant attribute LiveKit avatar workers carry: the identity of the agent they publish for. */
export const ATTRIBUTE_PUBLISH_ON_BEHALF = 'lk.publish_on_behalf';

/**
 * Identity prefix of the avatar participant in the rooms liveai-kit's proxy creates and in the local avatar
 * service's hosted rooms (`liveai-avatar-…`). Viewers get other identities (`viewer-…`, `user-…`).
 */
export const AVATAR_IDENTITY_PREFIX = 'liveai-avatar-';

/** How the avatar's identity is known; a stronger clue replaces a weaker one. */
const enum Clue {
  None = 0,
  /** The first participant that sent a service event or published a track (rooms that name their avatar in no other way). */
  FirstSeen = 1,
  /** The identity the proxy or the service gave the avatar (`liveai-avatar-…`). */
  Named = 2,
  /** The participant whose attributes carry `lk.publish_on_behalf` (an avatar publishing for a LiveKit agent). */
  OnBehalf = 3,
}

/**
 * Which remote participant of a room is the avatar. Only the avatar's data (app) messages become service events
 * and only its tracks are shown and played; anyone else in the room (the agent it speaks for, other viewers) is
 * ignored. The avatar is, by the strongest clue seen: the participant carrying `lk.publish_on_behalf`; else the one
 * named `liveai-avatar-…`; else (a room that names its avatar in no way) the first participant that sent a service
 * event or published a track.
 *
 * On LiveKit the key is the participant's identity, which the room's server-minted token fixes; it is kept across
 * rejoins, since the avatar keeps its identity. On Daily the key is the participant's `session_id`, and only the last
 * clue exists: a Daily room names its avatar in no way a participant could not fake (anyone may pick a `user_name`),
 * so the first remote participant that sends a service event or starts a track is the avatar for the whole call.
 */
export class AvatarIdentity {
  private identity: string | null = null;
  private clue = Clue.None;
  /** The agent the avatar publishes for (`lk.publish_on_behalf`), whose transcriptions are read too. */
  agent: string | null = null;

  /** The avatar's identity, or null while no participant could be taken for it. */
  get current(): string | null {
    return this.identity;
  }

  /** A participant was seen (joined, listed, its attributes changed). Returns true when the avatar changed. */
  see(identity: string | undefined, attributes?: Readonly<Record<string, string>>): boolean {
    if (!identity) return false;
    const agent = attributes?.[ATTRIBUTE_PUBLISH_ON_BEHALF];
    if (agent) {
      this.agent = agent;
      return this.take(identity, Clue.OnBehalf);
    }
    return identity.startsWith(AVATAR_IDENTITY_PREFIX) ? this.take(identity, Clue.Named) : false;
  }

  /** Whether a message or track from `identity` may be the avatar's (always, while nobody is known). */
  accepts(identity: string | undefined): boolean {
    return this.identity === null || (identity !== undefined && identity === this.identity);
  }

  /** A service event or a track came from `identity`: it is the avatar when nobody is known yet. */
  claim(identity: string | undefined): boolean {
    if (!identity) return this.identity === null;
    if (this.identity === null) this.take(identity, Clue.FirstSeen);
    return identity === this.identity;
  }

  /** Whether a transcription from `identity` is the avatar's side of the conversation (the avatar or its agent). */
  speaksFor(identity: string | undefined): boolean {
    return this.accepts(identity) || (identity !== undefined && identity === this.agent);
  }

  /** Whether the avatar is among the `reachable` identities of the current room. */
  reachableIn(reachable: ReadonlySet<string>): boolean {
    return this.identity ? reachable.has(this.identity) : reachable.size > 0;
  }

  private take(identity: string, clue: Clue): boolean {
    if (clue < this.clue || (clue === this.clue && this.identity !== null)) return false;
    const changed = identity !== this.identity;
    this.identity = identity;
    this.clue = clue;
    return changed;
  }
}
