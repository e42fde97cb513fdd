import sharp from 'sharp';
import request from 'supertest';
import { expect } from 'vitest';
import { ALICE, bodies } from '../helpers';
import { expectError, type Case } from './types';

/** A PNG of `w`×`h` px: red border area, a green 100×100 square in the centre. */
async function png(w: number, h: number): Promise<Buffer> {
  const square = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#00ff00' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: w, height: h, channels: 3, background: '#ff0000' } })
    .composite([{ input: square, left: Math.round(w / 2 - 50), top: Math.round(h / 2 - 50) }])
    .png()
    .toBuffer();
}
const payload = (extra: object = {}) =>
  JSON.stringify({ transport_type: 'websocket-rtc-b', rtc_b_properties: bodies.wsB().rtc_b_properties, ...extra });

/** The multipart create call: `image` parts attached (`[field, bytes, filename]`), then a `payload` text field. */
async function post(h: Parameters<Case['run']>[0]['h'], parts: { image?: [string, Buffer, string]; payload?: string }) {
  let req = h.raw('post', '/liveai/sessions').set('X-API-Key', ALICE);
  if (parts.image) req = req.attach(...parts.image);
  if (parts.payload !== undefined) req = req.field('payload', parts.payload);
  return req;
}
/** A case expecting `status` and a `detail` matching `detail` for the parts `make()` gives. */
const rejects = (
  name: string,
  make: () => Promise<{ image?: [string, Buffer, string]; payload?: string }>,
  status: number,
  detail: RegExp,
): Case => ({ name, run: async ({ h }) => expectError(await post(h, await make()), status, detail) });
const image = async (w = 368, h = 560, field = 'image', filename = 'a.png'): Promise<[string, Buffer, string]> => [
  field,
  await png(w, h),
  filename,
];

export const multipartCases: Case[] = [
  {
    name: 'fields: multipart: a 368x560 image part and a payload part → 201',
    run: async ({ h }) => {
      const res = await post(h, { image: await image(), payload: payload() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.websocket_address).toContain(res.body.session_id);
    },
  },
  {
    name: 'fields: multipart: an 800x600 image is center-cropped to 368x560',
    run: async ({ h }) => {
      const res = await post(h, { image: await image(800, 600), payload: payload() });
      expect(res.status).toBe(201);
      const img = await request(h.url).get(`/__emulator/sessions/${res.body.session_id}/image`).buffer(true);
      const { data, info } = await sharp(img.body as Buffer)
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([368, 560]);
      const at = (x: number, y: number) => [
        ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
      ];
      expect(at(184, 280)).toEqual([0, 255, 0]); // the centre survived the crop
      expect(at(5, 5)).toEqual([255, 0, 0]);
    },
  },
  {
    name: 'limits: multipart: an image part above 4 MB → 413',
    run: async ({ h }) => {
      const big = Buffer.concat([await png(368, 560), Buffer.alloc(4 * 1024 * 1024)]);
      expectError(await post(h, { image: ['image', big, 'big.png'], payload: payload() }), 413, /4194304/);
    },
  },
  rejects(
    'fields: multipart: an image part that is not an image → 400',
    async () => ({ image: ['image', Buffer.from('hello, not an image'), 'x.png'], payload: payload() }),
    400,
    /not a decodable image/,
  ),
  rejects('fields: multipart: 400 when the payload part is missing', async () => ({ image: await image() }), 400, /payload/),
  rejects('fields: multipart: 400 when the image part is missing', async () => ({ payload: payload() }), 400, /image part/),
  rejects(
    'fields: multipart: 400 when the payload is not JSON',
    async () => ({ image: await image(), payload: '{nope' }),
    400,
    /not valid JSON/,
  ),
  rejects(
    'fields: multipart: 400 when the payload also names agent_id (exactly one avatar source)',
    async () => ({ image: await image(), payload: payload({ agent_id: 'agent-demo' }) }),
    400,
    /exactly one avatar source/,
  ),
  rejects(
    'fields: multipart: 400 naming the missing transport properties in the payload',
    async () => ({ image: await image(), payload: JSON.stringify({ transport_type: 'websocket-rtc-a' }) }),
    400,
    /rtc_a_properties/,
  ),
  {
    name: 'fields: multipart: a payload sent as an application/json file part is accepted',
    run: async ({ h }) => {
      const res = await h
        .raw('post', '/liveai/sessions')
        .set('X-API-Key', ALICE)
        .attach('image', await png(400, 400), 'a.png')
        .attach('payload', Buffer.from(payload()), { filename: 'blob', contentType: 'application/json' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    },
  },
  rejects(
    'fields: multipart: an unexpected part → 400',
    async () => ({ image: await image(200, 200, 'photo'), payload: payload() }),
    400,
    /unexpected multipart part/,
  ),
];
