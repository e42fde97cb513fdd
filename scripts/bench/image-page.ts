// Page of the image-preparation bench (scripts/bench/image.mjs): window.__bench.ours() / .bic() fetch the 12 MP
// JPEG at /bench/source.jpg and turn it into a 368×560 JPEG under 921600 bytes; each resolves with
// { ms, width, height, bytes } (ms = wall time of the preparation only, the fetch excluded).
import imageCompression from 'browser-image-compression';
import { prepareImage } from '../../src/core/image/prepare';

const W = 368;
const H = 560;
const LIMIT = 921_600;
interface Result {
  ms: number;
  width: number;
  height: number;
  bytes: number;
}

async function source(): Promise<File> {
  const blob = await (await fetch('/bench/source.jpg', { cache: 'no-store' })).blob();
  return new File([blob], 'source.jpg', { type: 'image/jpeg' });
}

async function ours(): Promise<Result> {
  const file = await source();
  const t0 = performance.now();
  const out = await prepareImage(file);
  return { ms: performance.now() - t0, width: out.width, height: out.height, bytes: out.bytes };
}

/** browser-image-compression resizes and compresses but does not crop: resize to cover 368×560, then crop. */
async function bic(): Promise<Result> {
  const file = await source();
  const t0 = performance.now();
  // useWebWorker: false — its worker would load the library from a CDN.
  const scaled = await imageCompression(file, {
    maxSizeMB: LIMIT / 1024 / 1024,
    maxWidthOrHeight: Math.ceil(H * (4000 / 3000)),
    useWebWorker: false,
    fileType: 'image/jpeg',
  });
  const bmp = await createImageBitmap(scaled);
  const scale = Math.max(W / bmp.width, H / bmp.height);
  const sw = W / scale;
  const sh = H / scale;
  const canvas = new OffscreenCanvas(W, H);
  canvas.getContext('2d')!.drawImage(bmp, (bmp.width - sw) / 2, (bmp.height - sh) / 2, sw, sh, 0, 0, W, H);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  return { ms: performance.now() - t0, width: W, height: H, bytes: blob.size };
}

(window as unknown as { __bench: unknown }).__bench = { ours, bic };
document.getElementById('status')!.textContent = 'ready';
