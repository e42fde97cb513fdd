/** Participant attribute LiveKit avatar workers carry: the identity of the agent they publish for. */
export const ATTRIBUTE_PUBLISH_ON_BEHALF = 'lk.publish_on_behalf';

/**
 * Which remote participant of an rtc-a room is the avatar. A participant whose attributes carry
 * `lk.publish_on_behalf` is an avatar publishing for a LiveKit agent: it is the avatar, whatever else is in the room
 * (the agent itself, other users). Otherwise: the participant that sent the first service event on the event
 * topic; until one did, any participant that publishes a track (the avatar is the only publisher in a hosted room).
 * Kept across rejoins, since the avatar keeps its identity.
 */
export class AvatarPresence {
  private identity: string | null = null;
  /** True once the identity came from `lk.publish_on_behalf` (events from others no longer change it). */
  private onBehalf = false;

  /** A service event arrived from `identity`. */
  noteEvent(identity: string | undefined): void {
    if (identity && !this.onBehalf) this.identity ??= identity;
  }

  /** A participant's attributes were seen (on a track, on join, or when they changed). */
  noteAttributes(identity: string | undefined, attributes: Readonly<Record<string, string>> | undefined): void {
    if (!identity || !attributes?.[ATTRIBUTE_PUBLISH_ON_BEHALF] || this.onBehalf) return;
    this.identity = identity;
    this.onBehalf = true;
  }

  /** Whether `identity` is (or may be) the avatar. */
  isAvatar(identity: string | undefined, attributes?: Readonly<Record<string, string>>): boolean {
    this.noteAttributes(identity, attributes);
    return this.identity === null || identity === this.identity;
  }

  /** Whether the avatar is among the `reachable` identities of the current room. */
  reachableIn(reachable: ReadonlySet<string>): boolean {
    return this.identity ? reachable.has(this.identity) : reachable.size > 0;
  }
}
