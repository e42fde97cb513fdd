import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { ALICE, bodies, Harness } from './helpers';
import { writeResult } from '../setup/results';

/**
 * The local service stays local (attacks from the security review): a foreign `Host` (DNS rebinding) is
 * refused, image downloads never reach loopback, link-local or private addresses unless allowed, follow few
 * redirects, stop at 10 MB while reading, and tell the browser only a generic text; finished sessions are not
 * kept forever.
 */
let png: Buffer;
/** A loopback HTTP server standing in for internal services; counts what it is asked for. */
let inner: { server: Server; url: string; hits: string[]; sent: { bytes: number; closed: Promise<void> } };

beforeAll(async () => {
  png = await sharp({ create: { width: 368, height: 560, channels: 3, background: { r: 9, g: 9, b: 9 } } })
    .png()
    .toBuffer();
  const hits: string[] = [];
  let markClosed!: () => void;
  const sent = { bytes: 0, closed: new Promise<void>((r) => (markClosed = r)) };
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/face.png') return void res.end(png);
    if (req.url?.startsWith('/hop/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(302, { location: `/hop/${n + 1}` });
      return void res.end();
    }
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return void res.end();
    }
    if (req.url === '/declared-60mb') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(60 * 1024 * 1024) });
      return void res.end();
    }
    if (req.url === '/stream-60mb') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (sent.bytes < 60 * 1024 * 1024) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.once('close', markClosed);
      return pump();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  inner = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, sent };
});
afterAll(async () => {
  inner.server.closeAllConnections();
  await new Promise((r) => inner.server.close(r));
});

/** Raw HTTP with any `Host` header (fetch would not send a foreign one). */
function withHost(
  url: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers: { host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function imageChange(h: Harness, image_url: string): Promise<string | undefined> {
  const id = await h.activeSession();
  await h.control(id, { event: 'update-image', image_url }).expect(200);
  const done = await Promise.race([h.event(id, 'image_change_error'), h.event(id, 'image_change_complete')]);
  return done.event.type === 'image_change_error' ? String((done.event as { error?: unknown }).error) : undefined;
}

describe('Host check (DNS rebinding)', () => {
  it('a foreign Host gets 403 and no API keys; its own address, localhost and IP literals work', async () => {
    const h = await Harness.start();
    try {
      const port = new URL(h.url).port;
      const foreign = await withHost(h.url, '/__emulator/accounts', `rebind.evil.example:${port}`);
      expect(foreign.status).toBe(403);
      expect(foreign.body).not.toContain(ALICE);
      expect(JSON.parse(foreign.body).detail).toMatch(/Host not allowed/);
      expect((await withHost(h.url, '/liveai/sessions', `rebind.evil.example:${port}`, { 'x-api-key': ALICE })).status).toBe(403);
      const ws = await withHost(h.url, '/liveai/ws/x', `rebind.evil.example:${port}`, {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      });
      expect(ws.status).toBe(403);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
        expect((await withHost(h.url, '/__emulator/accounts', host)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('allowedHosts adds names', async () => {
    const h = await Harness.start({ allowedHosts: ['emulator.internal'] });
    try {
      expect((await withHost(h.url, '/__emulator/accounts', 'emulator.internal')).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('image downloads (SSRF)', () => {
  it('by default loopback, link-local, hex-encoded and userinfo URLs are refused before any connection, with one generic text', async () => {
    const h = await Harness.start({ imageHosts: undefined });
    try {
      const port = new URL(inner.url).port;
      const before = inner.hits.length;
      const targets = [
        `${inner.url}/face.png`,
        `http://localhost:${port}/face.png`,
        `http://0x7f000001:${port}/face.png`,
        `http://user:pw@127.0.0.1:${port}/face.png`,
        `http://[::ffff:127.0.0.1]:${port}/face.png`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/face.png',
      ];
      for (const url of targets) expect(await imageChange(h, url)).toBe('could not download the image');
      expect(inner.hits.length).toBe(before);
    } finally {
      await h.close();
    }
  });

  it('fetch errors cannot probe ports: a closed port and a 404 read the same', async () => {
    const h = await Harness.start({ imageHosts: 'loopback' });
    try {
      const closed = await imageChange(h, 'http://127.0.0.1:1/face.png');
      const missing = await imageChange(h, `${inner.url}/nothing-here`);
      expect([closed, missing]).toEqual(['could not download the image', 'could not download the image']);
    } finally {
      await h.close();
    }
  });

  it('the seed’s own image URLs are allowed even on loopback', async () => {
    const seed = { accounts: [{ api_key: ALICE, credits: 100, agents: [{ agent_id: 'agent-demo', image_url: `${inner.url}/face.png` }] }] };
    const h = await Harness.start({ imageHosts: undefined, seed });
    try {
      expect(await imageChange(h, `${inner.url}/face.png`)).toBeUndefined();
    } finally {
      await h.close();
    }
  });

  it('at most 3 redirects, each checked again (a redirect to the metadata address is refused)', async () => {
    const h = await Harness.start({ imageHosts: 'loopback' });
    try {
      const before = inner.hits.length;
      expect(await imageChange(h, `${inner.url}/hop/0`)).toBe('could not download the image');
      expect(inner.hits.length - before).toBe(4);
      expect(await imageChange(h, `${inner.url}/to-metadata`)).toBe('could not download the image');
    } finally {
      await h.close();
    }
  });

  it('a 60 MB image is refused while it streams in (not downloaded whole), or at once when its length is declared', async () => {
    const h = await Harness.start({ imageHosts: 'loopback' });
    try {
      expect(await imageChange(h, `${inner.url}/declared-60mb`)).toBe('could not download the image');
      expect(await imageChange(h, `${inner.url}/stream-60mb`)).toBe('could not download the image');
      await inner.sent.closed;
      expect(inner.sent.bytes).toBeLessThan(20 * 1024 * 1024);
      writeResult('server/emulator-60mb-stream.json', { bytesWrittenBeforeHangUp: inner.sent.bytes });
    } finally {
      await h.close();
    }
  });
});

describe('finished sessions are not kept forever', () => {
  it('keepFinishedSessions: only the newest finished ones stay readable; live ones always do', async () => {
    const h = await Harness.start({ keepFinishedSessions: 2 });
    try {
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(await h.session(bodies.rtcA()));
      const live = await h.session(bodies.rtcA());
      for (const id of ids) await h.control(id, { event: 'terminate' }).expect(200);
      const statuses = [];
      for (const id of [...ids, live]) statuses.push((await h.get(`/liveai/sessions/${id}`, ALICE)).status);
      expect(statuses).toEqual([404, 404, 200, 200, 200]);
    } finally {
      await h.close();
    }
  });
});
