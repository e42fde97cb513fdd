import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../src/emulator/cli';
// @ts-expect-error -- plain ESM script without types
import { LIVEKIT_KEYS, LIVEKIT_URL, ensureLivekit } from '../../scripts/livekit.mjs';

const TSX = ['node_modules/.bin/tsx', 'src/emulator/bin.ts'];

/** Runs the command line; resolves once it prints "listening on URL", with everything it prints (stdout and stderr). */
async function startCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(TSX[0]!, [TSX[1]!, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, output: () => out, stop };
}

describe('liveai-emulator flags', () => {
  it('maps every flag to createEmulator options; media defaults to on', () => {
    const { options } = parseCli([
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--seed',
      's.json',
      '--livekit-url',
      'ws://10.203.0.1:7880',
      '--livekit-api-key',
      'k',
      '--livekit-api-secret',
      's',
      '--queue-ms',
      '5',
      '--image-change-ms',
      '7',
      '--idle-timeout-s',
      '0.5',
      '--fail-rate',
      '0.25',
      '--drop-rate',
      '0',
      '--latency-ms',
      '3',
      '--next-session-outcome',
      'timeout',
      '--image-hosts',
      'loopback',
    ]);
    expect(options).toEqual({
      host: '0.0.0.0',
      port: 0,
      seed: 's.json',
      media: true,
      livekit: { url: 'ws://10.203.0.1:7880', apiKey: 'k', apiSecret: 's' },
      queueMs: 5,
      imageChangeMs: 7,
      idleTimeoutS: 0.5,
      imageHosts: 'loopback',
      faults: { latencyMs: 3, failRate: 0.25, dropRate: 0, nextSessionOutcome: 'timeout' },
    });
    expect(parseCli(['--media', 'off']).options.media).toBe(false);
    expect(parseCli(['--answer-when-active']).options.answerWhenActive).toBe(true);
    expect(parseCli([]).options.answerWhenActive).toBeUndefined();
  });

  it.each([
    [['--bogus'], /Unknown option/],
    [['--port', '70000'], /--port/],
    [['--port', 'abc'], /--port/],
    [['--media', 'maybe'], /--media must be on or off/],
    [['--queue-ms', '-1'], /--queue-ms/],
    [['--fail-rate', '1.5'], /--fail-rate/],
    [['--next-session-outcome', 'explode'], /--next-session-outcome/],
    [['stray'], /positional/i],
    [['--port'], /argument missing/i],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseCli(argv)).toThrow(CliError);
    expect(() => parseCli(argv)).toThrow(message);
  });

  it('exits with code 2 and the usage on a bad flag', () => {
    const r = spawnSync(TSX[0]!, [TSX[1]!, '--media', 'sometimes'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--media must be on or off/);
    expect(r.stderr).toMatch(/Usage: liveai-emulator/);
  });

  it('prints the built-in seed and "listening on http://HOST:PORT" when ready', async () => {
    const cli = await startCli(['--port', '0', '--media', 'off']);
    try {
      expect(cli.output()).toMatch(/dev-key-alice.*agent-demo, agent-cartoon/);
      expect(cli.output()).toMatch(/dev-key-broke\s+credits 0/);
      const res = await fetch(`${cli.url}/liveai/sessions`, { headers: { 'X-API-Key': 'dev-key-bob' } });
      expect(res.status).toBe(200);
    } finally {
      await cli.stop();
    }
  });

  it("with media on, an avatar's call prints none of @livekit/rtc-node's debug lines", async () => {
    const lk = await ensureLivekit();
    const args = ['--port', '0', '--media', 'on', '--queue-ms', '0', '--livekit-url', LIVEKIT_URL];
    args.push('--livekit-api-key', LIVEKIT_KEYS.apiKey, '--livekit-api-secret', LIVEKIT_KEYS.apiSecret);
    const env = { ...process.env };
    delete env.NODE_ENV; // as a user starts it
    const cli = await startCli(args, env);
    const url = cli.url;
    const key = { 'X-API-Key': 'dev-key-alice', 'content-type': 'application/json' };
    try {
      const res = await fetch(`${url}/liveai/rooms`, { method: 'POST', headers: key, body: JSON.stringify({ agent_id: 'agent-demo' }) });
      expect(res.status).toBe(201);
      const { session_id } = (await res.json()) as { session_id: string };
      // The avatar joined the room (the media module and rtc-node loaded, connected and published).
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${url}/liveai/sessions/${session_id}`, { headers: key })).json()) as { session_status: string })
              .session_status,
          { timeout: 30_000, interval: 200 },
        )
        .toBe('ACTIVE');
      await fetch(`${url}/liveai/sessions/${session_id}/terminate`, { method: 'POST', headers: key }).catch(() => undefined);
      expect(cli.output()).not.toMatch(/"level":20/);
      expect(cli.output()).not.toMatch(/"name":"lk-rtc"/);
    } finally {
      await cli.stop();
      await lk?.stop();
    }
  });
});
