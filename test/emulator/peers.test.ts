import { describe, expect, it } from 'vitest';
import { LiveAiError } from '../../src/core/errors';
import { assertEmulatorPeers } from '../../src/emulator/peers';

/**
 * Issue 39.2: `liveai-kit/emulator` without its optional packages failed with a bare `ERR_MODULE_NOT_FOUND 'sharp'`,
 * one package per attempt. The entry now names every missing package at once with the install command (the installed
 * tarball's behaviour is in test/consumer/emulator.test.ts).
 */
describe('liveai-kit/emulator peer check', () => {
  const without =
    (...missing: string[]) =>
    (name: string) =>
      !missing.includes(name);

  it('names every missing package, what it is for, and one install command', () => {
    let thrown: unknown;
    try {
      assertEmulatorPeers(without('sharp', 'express', 'ws', '@livekit/rtc-node'));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(LiveAiError);
    expect(thrown).toMatchObject({ code: 'missing_peer' });
    const { detail } = thrown as LiveAiError;
    expect(detail).toMatch(/^liveai-kit\/emulator needs packages that are not installed: express \(the HTTP server\), ws .*, sharp .*/);
    expect(detail).toContain('npm install -D express ws sharp @livekit/rtc-node');
    expect(detail).toContain('npm install -D liveai-emulator');
  });

  it('runs without @livekit/rtc-node alone (media off), and with everything', () => {
    expect(() => assertEmulatorPeers(without('@livekit/rtc-node'))).not.toThrow();
    expect(() => assertEmulatorPeers(() => true)).not.toThrow();
  });

  it('the checked entry exports every value the emulator module exports', async () => {
    const [entry, index] = await Promise.all([import('../../src/emulator/entry'), import('../../src/emulator/index')]);
    expect(Object.keys(entry).sort()).toEqual(Object.keys(index).sort());
  });
});
