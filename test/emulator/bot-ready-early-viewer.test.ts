import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AvatarMedia, AvatarMediaOptions } from '../../src/emulator/media/types';
import { FAKE_ROOM_SESSION } from './fake-media';
import { Harness, waitFor } from './helpers';

/**
 * `bot_ready` for a viewer LiveKit announces while the avatar is in the room but not yet ready. The room-wide
 * `bot_ready` that follows reaches only participants whose connection is already up, so such a viewer also gets it
 * addressed. The media avatar is replaced here (its room join is what the test times: the viewer is announced
 * between the avatar's join and its readiness, a moment a real LiveKit cannot be made to hit on purpose); the
 * real-room paths are covered by media-on.test.ts and the browser tier.
 */
const published: { type: string; to: string[] | null }[] = [];
let joined: AvatarMediaOptions | null = null;

vi.mock('../../src/emulator/media/index.js', async () => {
  const { fakeMedia } = await import('./fake-media');
  return {
    joinAvatar: (opts: AvatarMediaOptions): Promise<AvatarMedia> => {
      joined = opts;
      opts.onParticipantJoined?.('early-viewer'); // announced before the avatar is ready
      return Promise.resolve(
        fakeMedia({
          publishEvent: (event, to) => {
            published.push({ type: event.type, to: to ?? null });
            return Promise.resolve();
          },
        }),
      );
    },
  };
});

describe('bot_ready for viewers announced around activation', () => {
  let h: Harness;
  beforeAll(async () => {
    // The fake avatar replaces the media module of this process: so the avatars run here, not in avatar processes.
    h = await Harness.start({ media: true, queueMs: 10, avatarProcesses: 0 });
  });
  afterAll(() => h?.close());

  it('a viewer announced before the avatar is ready gets bot_ready addressed after the room-wide one', async () => {
    const id = await h.session(FAKE_ROOM_SESSION);
    await h.status(id, 'ACTIVE', 10_000);
    joined?.onParticipantJoined?.('late-viewer'); // announced once the avatar is ready: addressed, as before
    await waitFor(() => published.length >= 3, 'three bot_ready publishes', 10_000);
    expect(published).toEqual([
      { type: 'bot_ready', to: null },
      { type: 'bot_ready', to: ['early-viewer'] },
      { type: 'bot_ready', to: ['late-viewer'] },
    ]);
  });
});
