import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM scripts without types
import { startImpairedLink } from '../../scripts/impair/index.mjs';
// @ts-expect-error -- plain ESM scripts without types
import { measureLink } from '../../scripts/impair/self-test.mjs';

/**
 * The userspace impaired link the bench runs a browser behind (scripts/impair/): a process in the inner namespace
 * reaches this one only through the relay, which delays each packet 40 ± 10 ms each way and drops 2 % of them. The
 * self-test measures what a browser behind it would see: the round trip and the loss of 200 UDP echoes.
 */
interface Link {
  outer: string;
  command(file: string, args: string[]): [string, string[]];
  stats(): Promise<Record<'up' | 'down', { packets: number; dropped: number }>>;
  close(): Promise<void>;
}
interface Measured {
  probes: number;
  lost: number;
  rttMs: { min: number; median: number; p95: number; max: number };
}
let link: Link | undefined;
afterEach(async () => {
  await link?.close();
  link = undefined;
});

describe.skipIf(process.env.LIVEAI_IN_NETNS !== '1')('impaired link (inside the private network namespace)', () => {
  it('delays each way by 40 ± 10 ms and drops about 2 % of the packets each way', async () => {
    link = (await startImpairedLink({ delayMs: 40, jitterMs: 10, loss: 0.02, seed: 7 })) as Link;
    const r = (await measureLink(link, { probes: 200, intervalMs: 20 })) as Measured;
    // Two one-way delays of 30–50 ms each: a round trip is never under 60 ms, and its median is about 80 ms.
    expect(r.rttMs.min).toBeGreaterThanOrEqual(60);
    expect(r.rttMs.median).toBeGreaterThan(72);
    expect(r.rttMs.median).toBeLessThan(92);
    // 2 % each way loses about 4 % of the echoes (7.9 of 200); outside 1–25 has a probability under 1e-3.
    expect(r.lost).toBeGreaterThanOrEqual(1);
    expect(r.lost).toBeLessThanOrEqual(25);
    const s = await link.stats();
    expect(s.up.dropped + s.down.dropped).toBeGreaterThanOrEqual(r.lost);
  });

  it('with no delay and no loss, a page over TCP loads whole and fast', async () => {
    link = (await startImpairedLink({ delayMs: 0, jitterMs: 0, loss: 0 })) as Link;
    const body = 'x'.repeat(300_000); // many packets: any lost or reordered one would show as a stall or a bad body
    const server = createServer((_req, res) => res.end(body));
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    try {
      const url = `http://${link.outer}:${(server.address() as AddressInfo).port}/`;
      const [file, args] = link.command(process.execPath, [
        '-e',
        'const t=performance.now();fetch(process.argv[1]).then(r=>r.text()).then(b=>console.log(JSON.stringify({n:b.length,ms:performance.now()-t})))',
        url,
      ]);
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        c.stdout.on('data', (d) => (text += d));
        c.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`fetch in the inner namespace exited with ${code}`))));
      });
      const r = JSON.parse(out) as { n: number; ms: number };
      expect(r.n).toBe(body.length);
      const m = (await measureLink(link, { probes: 20, intervalMs: 5 })) as Measured;
      expect(m.lost).toBe(0);
      expect(m.rttMs.median).toBeLessThan(20);
    } finally {
      server.close();
    }
  });
});
