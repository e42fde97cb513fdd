import type { AvatarMedia } from '../../src/emulator/media/types';

/**
 * A media avatar that does nothing, for tests that replace the media module of their own process (with
 * `avatarProcesses: 0`) to time what the session logic does around the avatar; `over` replaces some methods.
 */
export const fakeMedia = (over: Partial<AvatarMedia> = {}): AvatarMedia => ({
  identity: 'liveai-avatar-fake',
  publishEvent: () => Promise.resolve(),
  speak: () => Promise.resolve(),
  playPcm: () => {},
  setImage: () => Promise.resolve(),
  setDemeanour: () => {},
  playAction: () => {},
  stats: () => ({ framesSent: 0, fps: 0 }),
  close: () => Promise.resolve(),
  ...over,
});

/** An rtc-a session whose avatar joins a room of its own (the fake avatar never connects anywhere). */
export const FAKE_ROOM_SESSION = {
  agent_id: 'agent-demo',
  transport_type: 'rtc-a',
  properties: { rtc_a_url: 'ws://127.0.0.1:7880', rtc_a_token: 'token-for-the-avatar' },
};
