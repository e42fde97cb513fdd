import { describe, expect, it } from 'vitest';
import { BlockList, isIP as nodeIsIP } from 'node:net';
import fc from 'fast-check';
import { AddressList, isIP, sha256Hex } from '../../src/server/limits/ip-match';
import { createHash } from 'node:crypto';

/**
 * The proxy's address checks run where `node:net` does not exist (Workers, Vercel Edge), so they are plain
 * JavaScript: here they must answer exactly as Node's `net.isIP` and `BlockList` did, for any input.
 */
const address = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.constantFrom('::ffff:1.2.3.4', 'fe80::1%eth0', '01.2.3.4', '1.2.3', '1.2.3.4/24', '::', '[::1]', ' 1.2.3.4', '1.2.3.4:80', ''),
  fc.string({ maxLength: 24 }),
  fc.stringMatching(/^[0-9a-f:.%]{1,40}$/),
);

describe('address checks without node:net', () => {
  it('isIP answers as Node’s net.isIP for any string', () => {
    fc.assert(
      fc.property(address, (a) => {
        expect(isIP(a)).toBe(nodeIsIP(a));
      }),
      { numRuns: 5000 },
    );
  });

  it('AddressList.check answers as Node’s BlockList for subnets and addresses of either family', () => {
    const v4 = fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([a, p]) => ({ a, p, f: 'ipv4' as const }));
    const v6 = fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([a, p]) => ({ a, p, f: 'ipv6' as const }));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(v4, v6), { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.oneof(
            fc.ipV4(),
            fc.ipV6(),
            fc.ipV4().map((a) => `::ffff:${a}`),
          ),
          { maxLength: 8 },
        ),
        (nets, probes) => {
          const ours = new AddressList();
          const node = new BlockList();
          for (const n of nets) {
            ours.addSubnet(n.a, n.p, n.f);
            node.addSubnet(n.a, n.p, n.f);
          }
          // Probes inside each subnet too (the network address itself), not only random ones.
          for (const probe of [...probes, ...nets.map((n) => n.a)]) {
            const family = nodeIsIP(probe) === 4 ? 'ipv4' : 'ipv6';
            expect(ours.check(probe, family)).toBe(node.check(probe, family));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('sha256Hex matches node:crypto', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (s) => {
        expect(await sha256Hex(s)).toBe(createHash('sha256').update(s).digest('hex'));
      }),
      { numRuns: 200 },
    );
  });
});
