import { afterEach, describe, expect, it, vi } from 'vitest';
import { prepareImage } from '../../../src/core';
import { bytesToBase64, coverCropRect, downscaleSteps, searchQuality } from '../../../src/core/image/geometry';
import { createTestSession } from '../../../src/testing';

afterEach(() => vi.unstubAllGlobals());

describe('image geometry (pure)', () => {
  it('centre-crops wide, tall and exact images to 368:560', () => {
    expect(coverCropRect(1920, 1080, 368, 560)).toEqual({ sx: 605, sy: 0, sw: 710, sh: 1080 });
    expect(coverCropRect(1000, 3000, 368, 560)).toEqual({ sx: 0, sy: 739, sw: 1000, sh: 1522 });
    expect(coverCropRect(368, 560, 368, 560)).toEqual({ sx: 0, sy: 0, sw: 368, sh: 560 });
    expect(() => coverCropRect(0, 10, 368, 560)).toThrow(RangeError);
  });
  it('keeps the target aspect within a pixel for any size', () => {
    for (const [w, h] of [
      [4000, 3000],
      [7728, 5152],
      [300, 301],
      [1, 1000],
      [1000, 1],
    ] as const) {
      const r = coverCropRect(w, h, 368, 560);
      expect(r.sx + r.sw).toBeLessThanOrEqual(w);
      expect(r.sy + r.sh).toBeLessThanOrEqual(h);
      expect(Math.abs(r.sw / r.sh - 368 / 560)).toBeLessThan(1 / Math.min(r.sw, r.sh) + 1e-9);
    }
  });
  it('downscales a 40 MP crop in halving steps ending at 368×560', () => {
    const steps = downscaleSteps(5120, 7792, 368, 560);
    expect(steps.at(-1)).toEqual({ width: 368, height: 560 });
    expect(steps.slice(0, -1).map((s) => s.width)).toEqual([2560, 1280]);
    expect(downscaleSteps(500, 760, 368, 560)).toEqual([{ width: 368, height: 560 }]);
  });
  it('quality search returns the highest quality under the limit, or null', async () => {
    const sizeAt = (q: number) => ({ size: Math.round(q * 1000) });
    const found = await searchQuality(async (q) => sizeAt(q), 700);
    expect(found!.result.size).toBeLessThan(700);
    expect(found!.quality).toBeGreaterThan(0.68);
    expect((await searchQuality(async (q) => sizeAt(q), 2000))!.quality).toBe(0.92);
    expect(await searchQuality(async (q) => sizeAt(q), 100)).toBeNull();
  });
  it('base64 of large byte arrays', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => i & 0xff);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

/** A canvas stand-in: records draws; encodes to a blob whose size grows with quality. */
function stubCanvas(bytesAt: (q: number) => number) {
  const draws: unknown[][] = [];
  class FakeOffscreen {
    constructor(
      readonly width: number,
      readonly height: number,
    ) {}
    getContext() {
      return { drawImage: (...a: unknown[]) => draws.push(a), imageSmoothingEnabled: false, imageSmoothingQuality: 'low' };
    }
    async convertToBlob({ type, quality }: { type: string; quality: number }) {
      return new Blob([new Uint8Array(bytesAt(quality))], { type });
    }
  }
  vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
  vi.stubGlobal('createImageBitmap', async (b: Blob) => {
    if (b.type === 'text/plain') throw new DOMException('decode failed', 'InvalidStateError');
    return { width: 4000, height: 3000, close() {} };
  });
  return draws;
}

describe('prepareImage (orchestration with a stub canvas)', () => {
  it('crops, steps down and encodes under the limit', async () => {
    const draws = stubCanvas((q) => Math.round(q * 2000));
    const out = await prepareImage(new Blob([new Uint8Array(10)], { type: 'image/heic' }), { maxBytes: 1500 });
    expect(out).toMatchObject({ width: 368, height: 560, type: 'image/jpeg' });
    expect(out.bytes).toBeLessThan(1500);
    expect(out.base64).toBe(bytesToBase64(new Uint8Array(out.bytes)));
    expect(draws[0]!.slice(1)).toEqual([1014, 0, 1971, 3000, 0, 0, 986, 1500]);
    expect(draws.at(-1)!.slice(5)).toEqual([0, 0, 368, 560]);
  });
  it('undecodable input is invalid_request; no browser APIs is invalid_request; too big is payload_too_large', async () => {
    stubCanvas(() => 5_000_000);
    await expect(prepareImage(new Blob(['hello'], { type: 'text/plain' }))).rejects.toMatchObject({
      code: 'invalid_request',
      detail: expect.stringMatching(/decoded/),
    });
    await expect(prepareImage(new Blob([new Uint8Array(4)], { type: 'image/png' }))).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(prepareImage(new Blob([]))).rejects.toMatchObject({ code: 'invalid_request' });
    vi.unstubAllGlobals();
    await expect(prepareImage(new Blob([new Uint8Array(4)]))).rejects.toMatchObject({
      code: 'invalid_request',
      detail: expect.stringMatching(/createImageBitmap/),
    });
  });
  it('updateImage({blob}) prepares the image and sends it inline', async () => {
    stubCanvas(() => 3000);
    const s = createTestSession({ initialState: { phase: 'active' } });
    await s.updateImage({ blob: new Blob([new Uint8Array(8)], { type: 'image/png' }) });
    const sent = s.proxy.last()!.controls[0] as { event: string; image_base64: string };
    expect(sent.event).toBe('update-image');
    expect(atob(sent.image_base64).length).toBe(3000);
    expect(s.store.getState().image.status).toBe('requested');
    s.dispose({ end: false });
  });
  it('updateImage({blob}) that cannot be decoded sets image.error and sends nothing', async () => {
    stubCanvas(() => 3000);
    const s = createTestSession({ initialState: { phase: 'active' } });
    await expect(s.updateImage({ blob: new Blob(['x'], { type: 'text/plain' }) })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(s.store.getState().image).toMatchObject({ status: 'error' });
    expect(s.proxy.last()!.controls).toEqual([]);
    s.dispose({ end: false });
  });
});
