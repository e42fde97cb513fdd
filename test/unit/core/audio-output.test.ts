import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepAudioContextRunning } from '../../../src/core/audio/keep-running';
import { createAudioOutput } from '../../../src/core/session/audio-output';

/**
 * Issue 40.4, sound that comes back: the session's audio element, with jsdom's element and fakes of what jsdom has
 * not (play(), paused, setSinkId, the device list, page visibility, an AudioContext).
 */
const notAllowed = () => Object.assign(new Error('play() failed'), { name: 'NotAllowedError' });
const flush = () => new Promise<void>((r) => setTimeout(r, 0));

let visibility: DocumentVisibilityState = 'visible';
let paused = true;
let allowed: () => boolean = () => true;
let outputs: string[] = [];
const devices = Object.assign(new EventTarget(), {
  enumerateDevices: vi.fn(async () => outputs.map((deviceId) => ({ kind: 'audiooutput', deviceId }) as MediaDeviceInfo)),
});
const play = vi.fn(function (this: HTMLMediaElement) {
  if (!allowed()) return Promise.reject(notAllowed());
  paused = false;
  return Promise.resolve();
});
const sinks: string[] = [];
const setSinkId = vi.fn(async (id: string) => void sinks.push(id));

const setVisibility = (v: DocumentVisibilityState) => {
  visibility = v;
  document.dispatchEvent(new Event('visibilitychange'));
};
/** What the browser does on an interruption or a route change: it pauses the element. */
const browserPauses = (el: HTMLMediaElement) => {
  paused = true;
  el.dispatchEvent(new Event('pause'));
};

beforeEach(() => {
  visibility = 'visible';
  paused = true;
  allowed = () => true;
  outputs = ['default', 'usb-1'];
  play.mockClear();
  setSinkId.mockClear();
  sinks.length = 0;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => void (paused = true));
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => paused);
  Object.defineProperty(HTMLMediaElement.prototype, 'setSinkId', { configurable: true, value: setSinkId });
  vi.stubGlobal(
    'MediaStream',
    class {
      constructor(readonly tracks: unknown[]) {}
    },
  );
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: devices });
});
const made: { destroy(): void }[] = [];
afterEach(() => {
  for (const o of made.splice(0)) o.destroy();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (HTMLMediaElement.prototype as { setSinkId?: unknown }).setSinkId;
});

const track = { kind: 'audio', readyState: 'live' } as unknown as MediaStreamTrack;
function output() {
  const blocked: boolean[] = [];
  let el: HTMLAudioElement | undefined;
  const create = document.createElement.bind(document);
  vi.spyOn(document, 'createElement').mockImplementation(((tag: string) => {
    const made = create(tag);
    if (tag === 'audio') el = made as HTMLAudioElement;
    return made;
  }) as typeof document.createElement);
  const out = createAudioOutput((b) => blocked.push(b), { muted: false, volume: 1 });
  made.push(out);
  return { out, blocked, el: () => el! };
}

describe('the avatar audio output: sound that comes back (issue 40.4)', () => {
  it('audio that starts while the tab is hidden and is refused there plays once the tab is shown, with no "Tap to unmute"', async () => {
    allowed = () => visibility === 'visible'; // Safari: no start in the background
    visibility = 'hidden';
    const { out, blocked } = output();
    out.attach(track);
    await flush();
    expect(blocked).not.toContain(true);
    expect(paused).toBe(true);
    setVisibility('visible');
    await flush();
    expect(paused).toBe(false);
    expect(blocked).not.toContain(true);
  });

  it('playback the browser paused (an interrupted audio session, a route change) resumes by itself', async () => {
    const { out, el } = output();
    out.attach(track);
    await flush();
    browserPauses(el());
    await flush();
    expect(paused).toBe(false);
    expect(play).toHaveBeenCalledTimes(2);
  });

  it('paused while the tab is hidden: it waits, and plays again when the tab is shown', async () => {
    const { out, el } = output();
    out.attach(track);
    await flush();
    visibility = 'hidden';
    browserPauses(el());
    await flush();
    expect(paused).toBe(true);
    setVisibility('visible');
    await flush();
    expect(paused).toBe(false);
  });

  it('the chosen speaker goes away: back to the default device, and playing again', async () => {
    const { out, el } = output();
    out.attach(track);
    await out.setSinkId('usb-1');
    await flush();
    outputs = ['default'];
    browserPauses(el());
    paused = true; // the resume above may have run; the unplug leaves it paused again
    devices.dispatchEvent(new Event('devicechange'));
    await vi.waitFor(() => expect(sinks).toEqual(['usb-1', '']));
    await vi.waitFor(() => expect(paused).toBe(false));
  });

  it('a device change that keeps the chosen speaker changes nothing', async () => {
    const { out } = output();
    out.attach(track);
    await out.setSinkId('usb-1');
    devices.dispatchEvent(new Event('devicechange'));
    await flush();
    await flush();
    expect(sinks).toEqual(['usb-1']);
  });

  it('a browser that truly wants a gesture (visible, refused) still shows "Tap to unmute"; once allowed it plays', async () => {
    allowed = () => false;
    const { out, blocked } = output();
    out.attach(track);
    await flush();
    expect(blocked).toEqual([true]);
    allowed = () => true;
    await out.unblock();
    expect(blocked.at(-1)).toBe(false);
    expect(paused).toBe(false);
  });

  it('after the call (track detached) or destroy(), nothing plays again', async () => {
    const { out, el } = output();
    out.attach(track);
    await flush();
    out.attach(null);
    browserPauses(el());
    setVisibility('hidden');
    setVisibility('visible');
    await flush();
    expect(play).toHaveBeenCalledTimes(1);
    out.attach(track);
    await flush();
    out.destroy();
    setVisibility('visible');
    devices.dispatchEvent(new Event('devicechange'));
    await flush();
    expect(play).toHaveBeenCalledTimes(2);
  });
});

describe('keepAudioContextRunning (issue 40.4)', () => {
  const context = () => {
    const ctx = Object.assign(new EventTarget(), {
      state: 'running' as AudioContextState | 'interrupted',
      resume: vi.fn(async () => {
        ctx.state = 'running';
      }),
    });
    const set = (s: AudioContextState | 'interrupted') => {
      ctx.state = s;
      ctx.dispatchEvent(new Event('statechange'));
    };
    return { ctx, set };
  };

  it('an interrupted context (a phone call) is resumed; a hidden page waits until shown', () => {
    const { ctx, set } = context();
    const stop = keepAudioContextRunning(ctx as unknown as AudioContext);
    set('interrupted');
    expect(ctx.resume).toHaveBeenCalledTimes(1);
    visibility = 'hidden';
    set('suspended');
    expect(ctx.resume).toHaveBeenCalledTimes(1);
    setVisibility('visible');
    expect(ctx.resume).toHaveBeenCalledTimes(2);
    stop();
    set('suspended');
    expect(ctx.resume).toHaveBeenCalledTimes(2);
  });

  it('a refused resume is tried again after a device change; a closed context is left alone', async () => {
    const { ctx, set } = context();
    ctx.resume.mockRejectedValueOnce(notAllowed());
    keepAudioContextRunning(ctx as unknown as AudioContext);
    set('suspended');
    await flush();
    devices.dispatchEvent(new Event('devicechange'));
    expect(ctx.resume).toHaveBeenCalledTimes(2);
    set('closed');
    expect(ctx.resume).toHaveBeenCalledTimes(2);
  });
});
