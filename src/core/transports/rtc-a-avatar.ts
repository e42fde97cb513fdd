/**
 * Which remote participant of an rtc-a room is the avatar. Today: the participant that sent the first service
 * event on the event topic; until one did, any participant that publishes a track (the avatar is the only
 * publisher in a hosted room). Kept across rejoins, since the avatar keeps its identity. The one place to change
 * when rooms hold more publishers (e.g. an agent publishing on the avatar's behalf).
 */
export class AvatarPresence {
  private identity: string | null = null;

  /** A service event arrived from `identity`. */
  noteEvent(identity: string | undefined): void {
    if (identity) this.identity ??= identity;
  }

  /** Whether `identity` is (or may be) the avatar. */
  isAvatar(identity: string | undefined): boolean {
    return this.identity === null || identity === this.identity;
  }

  /** Whether the avatar is among the `reachable` identities of the current room. */
  reachableIn(reachable: ReadonlySet<string>): boolean {
    return this.identity ? reachable.has(this.identity) : reachable.size > 0;
  }
}
