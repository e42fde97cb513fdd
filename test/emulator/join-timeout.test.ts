import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AvatarMedia, AvatarMediaOptions } from '../../src/emulator/media/types';
import { FAKE_ROOM_SESSION } from './fake-media';
import { Harness, waitFor } from './helpers';

/**
 * An avatar whose join outlasts `joinTimeoutMs`: the session ends FAILED, and when the avatar gets into the room
 * after all it leaves again at once instead of staying there unseen. The media avatar is replaced here (a real
 * LiveKit cannot be made to take longer than a timeout on purpose).
 */
let finishJoin: (() => void) | null = null;
const closed = vi.fn(() => Promise.resolve());

vi.mock('../../src/emulator/media/index.js', async () => {
  const { fakeMedia } = await import('./fake-media');
  return {
    joinAvatar: (_opts: AvatarMediaOptions): Promise<AvatarMedia> =>
      new Promise((resolve) => {
        finishJoin = () => resolve(fakeMedia({ identity: 'liveai-avatar-late', close: closed }));
      }),
  };
});

describe('join timeout', () => {
  let h: Harness;
  beforeAll(async () => {
    // The fake avatar replaces the media module of this process: so the avatars run here, not in avatar processes.
    h = await Harness.start({ media: true, queueMs: 10, joinTimeoutMs: 100, avatarProcesses: 0 });
  });
  afterAll(() => h?.close());

  it('a join that outlasts joinTimeoutMs ends the session FAILED; the avatar that gets in later leaves at once', async () => {
    const id = await h.session(FAKE_ROOM_SESSION);
    await h.status(id, 'FAILED', 5000);
    expect(h.emu.state.session(id)?.end_reason).toMatch(/joining the room timed out after 100 ms/);
    expect(closed).not.toHaveBeenCalled();
    finishJoin?.();
    await waitFor(() => closed.mock.calls.length === 1, 'the late avatar to leave', 5000);
  });
});
