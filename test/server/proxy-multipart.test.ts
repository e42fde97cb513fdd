import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import sharp from 'sharp';
import type { Express } from 'express';
import { MAX_UPLOAD_BYTES } from '../../src/core/constants';
import { countingFetch, png, proxyApp, proxyOptions, startEmulator, type Emulator, serviceId } from './helpers';

let emulator: Emulator;
let app: Express;
const counter = countingFetch();
const payload = JSON.stringify({ transport_type: 'rtc-a', agent_prompt: 'friendly' });

beforeAll(async () => {
  emulator = await startEmulator();
  app = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch } }));
});
afterAll(async () => {
  await emulator.close();
});

const post = () => request(app).post('/api/avatar/sessions');

async function noUpstream(fn: () => Promise<request.Response>): Promise<request.Response> {
  const before = counter.calls;
  const res = await fn();
  expect(counter.calls, 'the service must not be called').toBe(before);
  return res;
}

describe('POST /sessions (multipart)', () => {
  it('forwards a real PNG and the payload (text field), the service stores the cropped image', async () => {
    const image = await png(736, 1120);
    const res = await post().attach('image', image, { filename: 'me.png', contentType: 'image/png' }).field('payload', payload);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ transport: 'rtc-a' });
    const stored = await fetch(`${emulator.url}/__emulator/sessions/${await serviceId(res.body.session_id)}/image`);
    expect(stored.status).toBe(200);
    const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([368, 560]);
  });

  it('accepts the payload as a JSON file part, as browsers send a Blob', async () => {
    const jpeg = await sharp(await png())
      .jpeg()
      .toBuffer();
    const res = await post()
      .attach('image', jpeg, { filename: 'me.jpg', contentType: 'image/jpeg' })
      .attach('payload', Buffer.from(payload), { filename: 'blob', contentType: 'application/json' });
    expect(res.status).toBe(201);
  });

  it('413 above 4 MB, before the service is called', async () => {
    const big = Buffer.concat([await png(), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const res = await noUpstream(() =>
      post().attach('image', big, { filename: 'big.png', contentType: 'image/png' }).field('payload', payload),
    );
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/4 MB/);
  });

  it('415 for a declared non-image type, 400 for bytes that are not an image', async () => {
    const pdf = await noUpstream(() =>
      post().attach('image', Buffer.from('%PDF-1.4 ...'), { filename: 'a.pdf', contentType: 'application/pdf' }).field('payload', payload),
    );
    expect(pdf.status).toBe(415);
    expect(pdf.body.detail).toMatch(/PNG, JPEG or WebP/);
    const svg = await noUpstream(() =>
      post().attach('image', Buffer.from('<svg/>'), { filename: 'a.svg', contentType: 'image/svg+xml' }).field('payload', payload),
    );
    expect(svg.status).toBe(415);
    const fake = await noUpstream(() =>
      post()
        .attach('image', Buffer.from('definitely not a png'), { filename: 'a.png', contentType: 'image/png' })
        .field('payload', payload),
    );
    expect(fake.status).toBe(400);
    expect(fake.body.detail).toMatch(/not a PNG, JPEG or WebP image/);
  });

  it('400 for missing or bad parts, and for two avatar sources', async () => {
    const image = await png();
    const cases: [string, () => request.Test, RegExp][] = [
      ['no image', () => post().field('payload', payload), /image part/],
      ['no payload', () => post().attach('image', image, { filename: 'a.png', contentType: 'image/png' }), /payload part/],
      [
        'payload not JSON',
        () => post().attach('image', image, { filename: 'a.png', contentType: 'image/png' }).field('payload', '{oops'),
        /JSON/,
      ],
      [
        'payload array',
        () => post().attach('image', image, { filename: 'a.png', contentType: 'image/png' }).field('payload', '[]'),
        /JSON object/,
      ],
      [
        'image and agent_id',
        () =>
          post()
            .attach('image', image, { filename: 'a.png', contentType: 'image/png' })
            .field('payload', JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' })),
        /exactly one avatar source/,
      ],
      [
        'extra file part',
        () =>
          post()
            .attach('image', image, { filename: 'a.png', contentType: 'image/png' })
            .attach('other', image, 'b.png')
            .field('payload', payload),
        /Unexpected multipart part/,
      ],
      [
        'extra text field',
        () => post().attach('image', image, { filename: 'a.png', contentType: 'image/png' }).field('payload', payload).field('note', 'hi'),
        /Unexpected multipart part/,
      ],
      [
        'two images',
        () =>
          post()
            .attach('image', image, { filename: 'a.png', contentType: 'image/png' })
            .attach('image', image, { filename: 'b.png', contentType: 'image/png' })
            .field('payload', payload),
        /Unexpected multipart part/,
      ],
    ];
    for (const [name, make] of cases) {
      const res = await noUpstream(() => make());
      expect(res.status, name).toBe(400);
      expect(res.body.detail, name).toMatch(/./);
      expect(res.body.detail, name).toMatch(cases.find((c) => c[0] === name)![2]);
    }
  });

  it('a truncated multipart body is a 400, not a crash', async () => {
    const res = await noUpstream(() =>
      post()
        .set('content-type', 'multipart/form-data; boundary=XYZ')
        .send('--XYZ\r\nContent-Disposition: form-data; name="payload"\r\n\r\n{"transport_type":"rtc-a"'),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Malformed multipart body' });
  });
});
