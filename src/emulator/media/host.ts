/**
 * An avatar host: a child process of the emulator that runs avatars (`joinAvatar`) for it and answers over the
 * IPC channel (see host-protocol.ts). The emulator forks a few of these so the avatars' rendering, their FFI calls
 * and libwebrtc's threads spread over the machine's cores; `@livekit/rtc-node` serves one JS thread per process,
 * so worker threads cannot share it. The host exits when the emulator's channel closes (the emulator ended or died).
 */
import { LiveAiError } from '../../core/index';
import { joinAvatar } from './index';
import type { FromHost, HostCallback, HostError, ToHost } from './host-protocol';
import type { AvatarMedia } from './types';

/** How often the host reports every avatar's frame counters, ms. */
const STATS_EVERY_MS = 1000;

const send = (m: FromHost): void => {
  if (process.connected) process.send?.(m);
};
const asHostError = (e: unknown): HostError =>
  e instanceof LiveAiError ? { code: e.code, message: e.detail } : { message: e instanceof Error ? e.message : String(e) };

const avatars = new Map<number, AvatarMedia>();
/** Joins still under way: a close that arrives first leaves the avatar as soon as it is in. */
const joining = new Map<number, Promise<AvatarMedia | null>>();

function callback(id: number, cb: HostCallback): void {
  send({ t: 'callback', id, ...cb } as FromHost);
}

async function join(id: number, options: Extract<ToHost, { t: 'join' }>['options']): Promise<void> {
  const p = joinAvatar({
    ...options,
    onAppMessage: (message, from) => callback(id, { name: 'onAppMessage', args: [message, from] }),
    onParticipantJoined: (identity) => callback(id, { name: 'onParticipantJoined', args: [identity] }),
    onDisconnected: (reason) => {
      avatars.delete(id);
      callback(id, { name: 'onDisconnected', args: [reason] });
    },
    onAgentAudio: () => callback(id, { name: 'onAgentAudio', args: [] }),
    onWarning: (text) => callback(id, { name: 'onWarning', args: [text] }),
    onOutage: (active) => callback(id, { name: 'onOutage', args: [active] }),
  }).then(
    (media) => {
      avatars.set(id, media);
      send({ t: 'joined', id, identity: media.identity });
      return media;
    },
    (e: unknown) => {
      send({ t: 'joinFailed', id, error: asHostError(e) });
      return null;
    },
  );
  joining.set(id, p);
  await p;
  joining.delete(id);
}

async function call(m: Extract<ToHost, { t: 'call' }>): Promise<void> {
  try {
    if (m.method === 'close') {
      const media = avatars.get(m.id) ?? (await joining.get(m.id));
      avatars.delete(m.id);
      await media?.close();
    } else {
      const media = avatars.get(m.id);
      if (media) {
        if (m.method === 'publishEvent') await media.publishEvent(...m.args);
        else if (m.method === 'speak') await media.speak(...m.args);
        else if (m.method === 'rejoin') await media.rejoin?.();
        else await media.setImage(...m.args);
      }
    }
    send({ t: 'result', call: m.call });
  } catch (e) {
    send({ t: 'result', call: m.call, error: asHostError(e) });
  }
}

process.on('message', (m: ToHost) => {
  if (m.t === 'join') void join(m.id, m.options);
  else if (m.t === 'call') void call(m);
  else {
    const media = avatars.get(m.id);
    if (!media) return;
    if (m.t === 'playPcm') media.playPcm(m.samples);
    else if (m.t === 'setDemeanour') media.setDemeanour(m.demeanour);
    else media.playAction(m.name);
  }
});

// The emulator is gone: leave every room (LiveKit would otherwise keep the avatars listed until they time out).
process.on('disconnect', () => {
  void Promise.allSettled([...avatars.values()].map((a) => a.close())).then(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
});

setInterval(() => {
  if (avatars.size === 0) return;
  send({
    t: 'stats',
    list: [...avatars].map(([id, a]) => {
      const s = a.stats();
      return [id, s.framesSent, s.fps];
    }),
  });
}, STATS_EVERY_MS).unref();

send({ t: 'ready' });
