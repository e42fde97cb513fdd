import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { LiveAiError } from '../core/index';
import type { EmulatorContext } from './context';
import { emitEvent } from './event-log';
import { handleAppMessage } from './app-messages';

/** Longest error text logged for an ignored app message, characters. */
const LOGGED_ERROR_CHARS = 200;
const clip = (text: string) => (text.length > LOGGED_ERROR_CHARS ? `${text.slice(0, LOGGED_ERROR_CHARS)}…` : text);
import { fetchImage, toAvatarPng } from './images';
import { activate, finish, touch } from './lifecycle';
import { publishesMedia } from './livekit';
import type { AvatarMedia, JoinAvatar } from './media/types';
import type { SessionRecord } from './store';

let loaded: Promise<JoinAvatar> | null = null;

/**
 * `@livekit/rtc-node` prints its debug lines (JSON on stdout, `"level":20`) unless `NODE_ENV` is `production` when it
 * loads, and has no other switch: so the media module loads with `NODE_ENV=production`, restored right after.
 * `LIVEAI_RTC_DEBUG=1` keeps its debug lines.
 */
async function importQuietly(): Promise<{ joinAvatar?: JoinAvatar }> {
  if (process.env.LIVEAI_RTC_DEBUG === '1') return import('./media/index.js');
  const had = Object.prototype.hasOwnProperty.call(process.env, 'NODE_ENV');
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await import('./media/index.js');
  } finally {
    if (had) process.env.NODE_ENV = before;
    else delete process.env.NODE_ENV;
  }
}

/**
 * The media avatar's peers can be loaded (checked without loading them: the avatars load them in their own processes).
 * @throws LiveAiError `missing_peer` otherwise.
 */
function checkMediaPeers(): void {
  const require = createRequire(import.meta.url);
  for (const name of ['@livekit/rtc-node', 'sharp']) {
    try {
      require.resolve(name);
    } catch (e) {
      throw new LiveAiError('missing_peer', `media avatar unavailable (is ${name} installed?): ${(e as Error).message}`, { cause: e });
    }
  }
}

/** `joinAvatar` of this emulator: in its avatar processes (`avatarProcesses` > 0) or in this process. */
async function joinAvatarOf(ctx: EmulatorContext): Promise<JoinAvatar> {
  if (!ctx.avatars) return loadJoinAvatar();
  checkMediaPeers();
  return ctx.avatars.join;
}

/**
 * Loads the media avatar (`./media/index.js`, export `joinAvatar`) once, lazily, so `@livekit/rtc-node`
 * is only needed with media on.
 * @throws LiveAiError `missing_peer` when the module or its dependencies cannot be loaded.
 */
export function loadJoinAvatar(): Promise<JoinAvatar> {
  loaded ??= importQuietly().then(
    (mod: { joinAvatar?: JoinAvatar }) => {
      if (typeof mod.joinAvatar !== 'function') throw new Error('./media/index.js has no joinAvatar export');
      return mod.joinAvatar;
    },
    (e: unknown) => {
      loaded = null;
      throw new LiveAiError('missing_peer', `media avatar unavailable (is @livekit/rtc-node installed?): ${(e as Error).message}`, {
        cause: e,
      });
    },
  );
  return loaded;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e: unknown) => (clearTimeout(t), reject(e as Error)),
    );
  });

/** How often, and how far apart (ms), LiveKit is asked for the avatar's tracks after an outage. */
const TRACK_CHECKS = 3;
const TRACK_CHECK_GAP_MS = 1000;
/** Most fresh rejoins per session for tracks LiveKit lost (so a server that keeps losing them cannot loop us). */
const MAX_TRACK_REJOINS = 3;
const trackRejoins = new WeakMap<SessionRecord, number>();

/**
 * The avatar is back from an outage: LiveKit must list its video and audio tracks. After a LiveKit crash restart,
 * under load, the SDK can heal the drop by itself and report its tracks republished while the new server lists none
 * (then no viewer gets video). LiveKit is asked a few times, a second apart (it may list them a moment late); if they
 * are still missing the avatar leaves and joins the room again with fresh tracks.
 */
async function checkTracksAfterOutage(ctx: EmulatorContext, rec: SessionRecord, media: AvatarMedia): Promise<void> {
  const room = rec.roomName;
  if (!room || !media.rejoin || (trackRejoins.get(rec) ?? 0) >= MAX_TRACK_REJOINS) return;
  for (let i = 0; i < TRACK_CHECKS; i++) {
    await delay(TRACK_CHECK_GAP_MS, undefined, { ref: false });
    if (rec.media !== media || rec.status !== 'ACTIVE') return;
    const listed = await publishesMedia(ctx.options.livekit, room, media.identity, TRACK_CHECK_GAP_MS);
    if (listed !== false) return; // listed, or LiveKit cannot say (the outage's own handling goes on)
  }
  trackRejoins.set(rec, (trackRejoins.get(rec) ?? 0) + 1);
  ctx.options.logger.warn({ session_id: rec.id }, "LiveKit lists none of the avatar's tracks after an outage: rejoining");
  await media.rejoin().catch((e: unknown) => ctx.options.logger.warn({ session_id: rec.id, err: (e as Error).message }, 'rejoin failed'));
}

/**
 * Media on: the avatar joins `rec.join` (LiveKit URL + token) with the session's image, then the session goes
 * ACTIVE (`bot_ready` is published). App messages (`chat-msg`, `force-end`) and late joiners are wired here.
 * Any failure (module missing, image not decodable, LiveKit unreachable, `joinTimeoutMs`) → FAILED.
 */
export async function joinMedia(ctx: EmulatorContext, rec: SessionRecord): Promise<void> {
  const target = rec.join;
  if (!target) return activate(ctx, rec);
  // Viewers LiveKit announced while the avatar was in the room but not yet ready. The room-wide `bot_ready` reaches
  // only participants whose connection is already up, which one that joined a moment before may not be: so each of
  // them also gets it addressed (a second copy at most, never none).
  const early = new Set<string>();
  try {
    const joinAvatar = await joinAvatarOf(ctx);
    const image = rec.image.bytes ?? (await toAvatarPng(await fetchImage(ctx, rec.image.url ?? '')));
    const joining = joinAvatar({
      livekitUrl: target.url,
      token: target.token,
      image,
      eventTopic: ctx.options.eventTopic,
      agentAudio: rec.transport === 'rtc-a',
      onAgentAudio: () => touch(ctx, rec),
      onWarning: (text) => ctx.options.logger.warn({ session_id: rec.id }, text),
      onAppMessage: (message, from) => {
        try {
          handleAppMessage(ctx, rec, message);
        } catch (e) {
          // One line per ignored message, its text cut short: a flood of big messages cannot flood the log.
          ctx.options.logger.debug({ session_id: rec.id, from, err: clip(String(e)) }, 'ignored an invalid app message');
        }
      },
      onParticipantJoined: (identity) => {
        if (rec.status === 'ACTIVE') emitEvent(ctx, rec, { type: 'bot_ready' }, [identity]);
        else if (rec.status === 'QUEUED') early.add(identity);
      },
      onDisconnected: (reason) => finish(ctx, rec, 'FAILED', `the avatar lost the room: ${reason}`),
      onOutage: (active) => {
        if (!active && rec.media) void checkTracksAfterOutage(ctx, rec, rec.media);
      },
    });
    // An avatar that gets in after the join timed out leaves again at once (else it would stay in the room).
    const media = await withTimeout(joining, ctx.options.joinTimeoutMs, 'joining the room').catch((e: unknown) => {
      void joining.then((late) => late.close()).catch(() => {});
      throw e;
    });
    if (rec.status !== 'QUEUED') {
      await media.close();
      return;
    }
    rec.media = media;
    if (rec.demeanour.agentPrompt || rec.demeanour.idlePrompt) media.setDemeanour(rec.demeanour);
    activate(ctx, rec);
    if (early.size > 0) emitEvent(ctx, rec, { type: 'bot_ready' }, [...early]);
  } catch (e) {
    ctx.options.logger.warn({ session_id: rec.id, err: (e as Error).message }, 'the avatar could not join');
    finish(ctx, rec, 'FAILED', `join failed: ${(e as Error).message}`);
  }
}
