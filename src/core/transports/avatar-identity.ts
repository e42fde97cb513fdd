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

/** LiveKit's participant kind of an agent (`ParticipantInfo.Kind.AGENT`): set only by the token the server minted. */
export const PARTICIPANT_KIND_AGENT = 4;

/** How the avatar's identity is known; a stronger clue replaces a weaker one. */
const enum Clue {
  None = 0,
  /** Daily only: the first participant that sent a service event or published a track (nothing better exists there). */
  FirstSeen = 1,
  /** LiveKit: a participant of kind `agent` (its server-minted token says so), for services that name it in no other way. */
  AgentKind = 2,
  /** The identity the proxy or the service gave the avatar (`liveai-avatar-…`). */
  Named = 3,
  /** The participant whose attributes carry `lk.publish_on_behalf` (an avatar publishing for a LiveKit agent). */
  OnBehalf = 4,
  /** The exact identity the session handle names (`avatar_identity`, from the proxy that minted the avatar's token). */
  Given = 5,
}

/** What a room tells of a participant. */
export interface SeenParticipant {
  identity?: string | undefined;
  attributes?: Readonly<Record<string, string>> | undefined;
  /** LiveKit's participant kind (`PARTICIPANT_KIND_AGENT` for an agent). */
  kind?: number | undefined;
}

/**
 * Which remote participant of a room is the avatar. Only the avatar's data (app) messages become service events,
 * only its transcriptions (and its agent's) are read, and only its tracks are shown and played; anyone else in the
 * room (other viewers, an intruder holding a room token) is ignored.
 *
 * On LiveKit the key is the participant's identity, which the room's server-minted token fixes; it is kept across
 * rejoins, since the avatar keeps its identity. The avatar is, by the strongest clue seen:
 * - the identity the session handle names (`avatar_identity`: the proxy minted the avatar's token), and nobody else
 *   ever;
 * - else the participant carrying `lk.publish_on_behalf` (an avatar publishing for a LiveKit agent);
 * - else the one named `liveai-avatar-…` (the local avatar service's hosted rooms);
 * - else a participant of kind `agent`.
 * Nobody else is ever taken for the avatar, however early it joins or whatever it sends: while no participant fits,
 * nothing is accepted.
 *
 * On Daily the key is the participant's `session_id`, and only one clue exists (`firstSeen`): a Daily room names its
 * avatar in no way a participant could not fake (anyone may pick a `user_name`), so the first remote participant that
 * sends a service event or starts a track is the avatar for the whole call.
 */
export class AvatarIdentity {
  private identity: string | null = null;
  private clue = Clue.None;
  private readonly firstSeen: boolean;
  /** The agent the avatar publishes for (`lk.publish_on_behalf`), whose transcriptions are read too. */
  agent: string | null = null;
  /** The avatar's exact identity the session handle names (`avatar_identity`), if it does. */
  readonly expected: string | null;

  /**
   * @param o.expected the avatar's exact identity, when the session handle names it: nobody else is accepted.
   * @param o.firstSeen take the first participant that sends an event or a track (Daily); false on LiveKit.
   */
  constructor(o: { expected?: string | undefined; firstSeen?: boolean } = {}) {
    this.firstSeen = o.firstSeen ?? false;
    this.expected = o.expected || null;
    if (o.expected) this.take(o.expected, Clue.Given);
  }

  /** The avatar's identity, or null while no participant could be taken for it. */
  get current(): string | null {
    return this.identity;
  }

  /** A participant was seen (joined, listed, its attributes changed, it sent something). Returns true when the avatar changed. */
  see(p: SeenParticipant | string | undefined, attributes?: Readonly<Record<string, string>>): boolean {
    const { identity, attributes: attrs = attributes, kind } = typeof p === 'string' ? { identity: p } : (p ?? {});
    if (!identity) return false;
    const agent = attrs?.[ATTRIBUTE_PUBLISH_ON_BEHALF];
    if (this.clue === Clue.Given) {
      if (agent && identity === this.identity) this.agent = agent;
      return false;
    }
    if (agent) {
      const changed = this.take(identity, Clue.OnBehalf);
      if (identity === this.identity) this.agent = agent;
      return changed;
    }
    if (identity.startsWith(AVATAR_IDENTITY_PREFIX)) return this.take(identity, Clue.Named);
    return kind === PARTICIPANT_KIND_AGENT ? this.take(identity, Clue.AgentKind) : false;
  }

  /** Whether a message or track from `identity` may be the avatar's (on Daily: anyone's, while nobody is known). */
  accepts(identity: string | undefined): boolean {
    if (this.identity === null) return this.firstSeen;
    return identity !== undefined && identity === this.identity;
  }

  /** A service event or a track came from `identity`: whether it is the avatar's (on Daily the first sender becomes it). */
  claim(identity: string | undefined): boolean {
    if (this.identity === null && this.firstSeen) {
      if (!identity) return true;
      this.take(identity, Clue.FirstSeen);
    }
    return identity !== undefined && identity === this.identity;
  }

  /** Whether a transcription from `identity` is the avatar's side of the conversation (the avatar or its agent). */
  speaksFor(identity: string | undefined): boolean {
    return (this.identity !== null && this.accepts(identity)) || (identity !== undefined && identity === this.agent);
  }

  /** Whether the avatar is among the `reachable` identities of the current room. */
  reachableIn(reachable: ReadonlySet<string>): boolean {
    if (this.identity) return reachable.has(this.identity);
    return this.firstSeen && reachable.size > 0;
  }

  private take(identity: string, clue: Clue): boolean {
    if (clue < this.clue || (clue === this.clue && this.identity !== null)) return false;
    const changed = identity !== this.identity;
    if (changed) this.agent = null;
    this.identity = identity;
    this.clue = clue;
    return changed;
  }
}
