import { LiveAiError } from '../../core/index';

/**
 * LiveKit credentials of the proxy (options.livekit). `apiSecret` never leaves this process.
 * @public
 */
export interface LivekitConfig {
  url: string;
  apiKey: string;
  apiSecret: string;
}

/** Tokens for one `rtc-a` room: the avatar's goes to the service, the viewer's to the browser. */
export interface RoomTokens {
  /** `liveai-<uuid>`. */
  roomName: string;
  /**
   * For the avatar (identity `liveai-avatar-…`, kind `agent`): join, publish, subscribe, data. Its attribute
   * `lk.publish_on_behalf` names {@link RoomTokens.agentIdentity}, so the avatar takes speech (`lk.audio_stream`) and
   * interruptions (`lk.clear_buffer`) from that participant only, never from a viewer.
   */
  avatarToken: string;
  /**
   * The avatar's identity (`liveai-avatar-…`), given to the browser as `avatar_identity`: it listens to that
   * participant only, so nobody else with a token for the room can pose as the avatar.
   */
  avatarIdentity: string;
  /** The one participant the avatar speaks for (`liveai-agent-…`); the proxy mints no token for it. */
  agentIdentity: string;
  /** For the browser (identity `viewer-…`): join, subscribe, publish the microphone only, data (chat). */
  viewerToken: string;
}

/** LiveKit's participant attribute naming the agent an avatar publishes for. */
const PUBLISH_ON_BEHALF = 'lk.publish_on_behalf';

/**
 * Avatar token lifetime, s: the longest cold start (150 s) plus a wide margin.
 * @public
 */
export const AVATAR_TOKEN_TTL_S = 600;
/**
 * Viewer token margin, s: the viewer token lives the session's maximum length (`sessionLimits.maxDurationMs`) plus
 * this, so the browser can rejoin the room with it (after a LiveKit restart) for as long as the session may run.
 * LiveKit checks a token only when joining.
 * @public
 */
export const VIEWER_TOKEN_TTL_S = 600;
/** Viewer token lifetime, s, when `sessionLimits` is `false` (no maximum length): 24 h. */
export const UNLIMITED_VIEWER_TOKEN_TTL_S = 24 * 3600;

/** The viewer token's lifetime, s, for sessions of at most `maxDurationMs` (no maximum: `undefined`). */
export const viewerTokenTtlS = (maxDurationMs: number | undefined) =>
  maxDurationMs === undefined ? UNLIMITED_VIEWER_TOKEN_TTL_S : Math.ceil(maxDurationMs / 1000) + VIEWER_TOKEN_TTL_S;

/**
 * Mints the two LiveKit access tokens of a fresh room with `livekit-server-sdk`.
 * @param viewerTtlS the viewer token's lifetime, s (see {@link viewerTokenTtlS}).
 * @throws LiveAiError `missing_peer` when livekit-server-sdk is not installed.
 */
export async function mintRoomTokens(lk: LivekitConfig, viewerTtlS: number): Promise<RoomTokens> {
  let sdk: typeof import('livekit-server-sdk');
  try {
    sdk = await import('livekit-server-sdk');
  } catch (cause) {
    throw new LiveAiError('missing_peer', 'rtc-a sessions need livekit-server-sdk: npm install livekit-server-sdk', { cause });
  }
  const { AccessToken, TrackSource } = sdk;
  const id = crypto.randomUUID();
  const roomName = `liveai-${id}`;
  const agentIdentity = `liveai-agent-${id.slice(0, 8)}`;
  const avatarIdentity = `liveai-avatar-${id.slice(0, 8)}`;
  const avatar = new AccessToken(lk.apiKey, lk.apiSecret, {
    identity: avatarIdentity,
    ttl: AVATAR_TOKEN_TTL_S,
    attributes: { [PUBLISH_ON_BEHALF]: agentIdentity },
  });
  // As LiveKit Agents' avatar plugins mint it: an agent participant that publishes for another one.
  avatar.kind = 'agent';
  avatar.addGrant({ roomJoin: true, room: roomName, canPublish: true, canSubscribe: true, canPublishData: true });
  const viewer = new AccessToken(lk.apiKey, lk.apiSecret, {
    identity: `viewer-${crypto.randomUUID().slice(0, 8)}`,
    ttl: viewerTtlS,
  });
  viewer.addGrant({
    roomJoin: true,
    room: roomName,
    canSubscribe: true,
    canPublish: true,
    canPublishSources: [TrackSource.MICROPHONE],
    canPublishData: true,
  });
  return { roomName, avatarIdentity, agentIdentity, avatarToken: await avatar.toJwt(), viewerToken: await viewer.toJwt() };
}
