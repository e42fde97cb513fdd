import { sampleAvatarImage } from '../src/testing';

/**
 * Real MediaStreamTracks for stories, made in the browser without a camera or network:
 * a 368×560 canvas drawing the avatar image with a moving mouth (video) and a silent WebAudio
 * tone (audio). Returns nulls where the browser lacks the APIs.
 */
export async function fakeAvatarTracks(
  image = sampleAvatarImage,
): Promise<{ video: MediaStreamTrack | null; audio: MediaStreamTrack | null }> {
  if (typeof document === 'undefined' || !('captureStream' in HTMLCanvasElement.prototype)) return { video: null, audio: null };
  const img = new Image();
  img.src = image;
  await img.decode().catch(() => undefined);
  const canvas = Object.assign(document.createElement('canvas'), { width: 368, height: 560 });
  const ctx = canvas.getContext('2d')!;
  const draw = (t: number) => {
    ctx.drawImage(img, 0, 0, 368, 560);
    ctx.fillStyle = '#7a2e22';
    ctx.beginPath();
    ctx.ellipse(184, 310, 20, 4 + 6 * Math.abs(Math.sin(t / 160)), 0, 0, Math.PI * 2);
    ctx.fill();
  };
  draw(0);
  const video = canvas.captureStream(25).getVideoTracks()[0] ?? null;
  const tick = (t: number) => {
    if (video?.readyState === 'ended') return;
    draw(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  let audio: MediaStreamTrack | null = null;
  if (typeof AudioContext !== 'undefined') {
    const ac = new AudioContext();
    const gain = ac.createGain();
    gain.gain.value = 0;
    const dest = ac.createMediaStreamDestination();
    const osc = ac.createOscillator();
    osc.connect(gain).connect(dest);
    osc.start();
    audio = dest.stream.getAudioTracks()[0] ?? null;
  }
  return { video, audio };
}

/**
 * A short clip (WebM, about 1.5 s) of the fake avatar, recorded in the browser, as the object URL of a Blob: what an
 * operator would give the widget as `previewSrc`. Null where the browser cannot record.
 */
export async function fakePreviewClip(ms = 1500): Promise<string | null> {
  const { video } = await fakeAvatarTracks();
  if (!video || typeof MediaRecorder === 'undefined') return null;
  const recorder = new MediaRecorder(new MediaStream([video]), { mimeType: 'video/webm' });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const done = new Promise((r) => (recorder.onstop = r));
  recorder.start();
  await new Promise((r) => setTimeout(r, ms));
  recorder.stop();
  await done;
  video.stop();
  return URL.createObjectURL(new Blob(chunks, { type: 'video/webm' }));
}

/**
 * A microphone for stories, as a browser has it once the visitor allowed it: `getUserMedia` answers with a steady
 * tone (a WebAudio sawtooth, so every band of a level meter moves) without a device or a permission prompt, and
 * `enumerateDevices` lists two named microphones and a speaker. Returns the function that puts the browser's own back.
 */
export function fakeMicrophone(): () => void {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!media || typeof AudioContext === 'undefined') return () => {};
  const { getUserMedia, enumerateDevices } = media;
  const ac = new AudioContext();
  const device = (kind: MediaDeviceKind, deviceId: string, label: string) =>
    ({ kind, deviceId, label, groupId: 'story', toJSON: () => ({}) }) as MediaDeviceInfo;
  media.enumerateDevices = async () => [
    device('audioinput', 'default', 'Default'),
    device('audioinput', 'headset', 'Headset microphone'),
    device('audioinput', 'built-in', 'Built-in microphone'),
    device('audiooutput', 'default', 'Default'),
    device('audiooutput', 'speakers', 'Built-in speakers'),
  ];
  media.getUserMedia = async () => {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = 'sawtooth';
    osc.frequency.value = 220;
    gain.gain.value = 0.6;
    const dest = ac.createMediaStreamDestination();
    osc.connect(gain).connect(dest);
    osc.start();
    return dest.stream;
  };
  return () => {
    Object.assign(media, { getUserMedia, enumerateDevices });
    void ac.close();
  };
}
