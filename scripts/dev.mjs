#!/usr/bin/env node
// `npm run dev`: the playground on the local avatar service, no account needed.
//   1. finds the pinned LiveKit server (installing it with Go if needed) BEFORE entering any namespace;
//   2. on Linux as root, makes a private network namespace with a host–namespace link (scripts/netns-run.sh) and
//      forwards 127.0.0.1:6006 (Storybook + proxy), 127.0.0.1:7880 (LiveKit signalling) and 127.0.0.1:4010 (the
//      local avatar service: its session images and `POST /__emulator/faults`) on the host to it, so the printed URL
//      opens in the user's own browser; LiveKit advertises only the namespace end of that link as its
//      ICE candidate, so media never takes the host's default route, and the avatar's media stays inside;
//   3. inside: LiveKit, the local avatar service (`--media on`) and Storybook with the proxy at /api/avatar.
// LIVEAI_NETNS=0 runs on the host network (the default when not root); where no namespace can be made (a container
// without CAP_SYS_ADMIN) it falls back to the host network and says so.
import { spawn } from 'node:child_process';
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { installLivekit, startLivekit, LIVEKIT_KEYS } from './livekit.mjs';
import { waitForStory } from './dev-ready.mjs';
import { NETNS_RUN, forwardTcp, hostLinkCandidates, isRoot, killNamespace, netnsOf, probeNamespace } from './netns.mjs';

const EMULATOR_PORT = Number(process.env.LIVEAI_EMULATOR_PORT ?? 4010);
const STORYBOOK_PORT = Number(process.env.LIVEAI_STORYBOOK_PORT ?? 6006);
const LIVEKIT_PORT = Number(process.env.LIVEAI_LIVEKIT_PORT ?? 7880);
const inNetns = process.env.LIVEAI_IN_NETNS === '1';
const linkIp = process.env.LIVEAI_LINK_IP; // namespace end of the host link, when there is one

if (!inNetns) {
  try {
    installLivekit();
  } catch (e) {
    console.error(`dev: ${e.message}`);
    process.exit(1);
  }
  const wantNetns = process.env.LIVEAI_NETNS === '1' || (process.env.LIVEAI_NETNS !== '0' && process.platform === 'linux' && isRoot());
  if (wantNetns) {
    const probe = probeNamespace();
    if (probe.ok) process.exit(await runInNamespace());
    const media = Object.values(networkInterfaces())
      .flat()
      .some((a) => a && !a.internal && a.family === 'IPv4')
      ? "the avatar's media reaches LiveKit through this machine's own address and stays on it"
      : 'media needs a network interface besides loopback, or a namespace (docker run --cap-add SYS_ADMIN)';
    console.log(`dev: no network namespace here (${probe.reason}): running on the host network, every service on 127.0.0.1; ${media}.`);
  }
}
await runServices();

/** Host side: forwarders on 127.0.0.1, then this script again inside a namespace linked to this one. */
async function runInNamespace() {
  const linked = isRoot();
  for (const link of linked ? hostLinkCandidates() : [null]) {
    const forwarders = [];
    if (link) {
      try {
        for (const port of [STORYBOOK_PORT, LIVEKIT_PORT, EMULATOR_PORT]) forwarders.push(await forwardTcp({ port, target: link.nsIp }));
      } catch (e) {
        forwarders.forEach((f) => f.close());
        console.error(`dev: ${e.message}; stop it, or set LIVEAI_STORYBOOK_PORT / LIVEAI_LIVEKIT_PORT / LIVEAI_EMULATOR_PORT`);
        return 1;
      }
    }
    const env = { ...process.env, LIVEAI_PARENT_PIPE: '1' };
    if (link) env.LIVEAI_HOST_LINK = `${process.pid} ${link.hostIf} ${link.nsIf} ${link.hostIp} ${link.nsIp}`;
    const child = spawn(NETNS_RUN, [process.execPath, ...process.argv.slice(1)], { stdio: ['pipe', 'inherit', 'inherit'], env });
    let ns = null;
    const own = netnsOf(process.pid);
    const watch = setInterval(() => {
      const n = netnsOf(child.pid);
      if (!n || n === own) return;
      ns = n;
      clearInterval(watch);
    }, 50);
    // Ctrl-C or a kill: the namespace side stops its services and exits; this side then closes its forwarders.
    const stop = () => child.kill('SIGINT');
    process.on('SIGINT', stop).on('SIGTERM', stop);
    const code = await new Promise((r) => child.on('exit', (c, sig) => r(c ?? (sig ? 1 : 0))));
    clearInterval(watch);
    process.off('SIGINT', stop).off('SIGTERM', stop);
    killNamespace(ns); // whatever a crash left inside; the kernel then removes the link
    forwarders.forEach((f) => f.close());
    if (code !== 75) return code;
  }
  console.error('dev: could not make a host–namespace link (every 10.204.x.x/30 tried is taken)');
  return 1;
}

/** Inside the namespace (or on the host network): LiveKit, the local avatar service and Storybook. */
async function runServices() {
  const children = [];
  let stopping = false;
  async function stopAll(code = 0) {
    if (stopping) return;
    stopping = true;
    for (const c of children.reverse()) await c.stop().catch(() => {});
    rmSync('.cache/dev.pid', { force: true });
    process.exit(code);
  }
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  // Started by the host side through a pipe: when that process goes away (even killed), stop everything.
  if (process.env.LIVEAI_PARENT_PIPE === '1') process.stdin.on('close', () => stopAll(0)).resume();

  function startChild(name, cmd, args, ready, env = {}) {
    return new Promise((resolve, reject) => {
      // Each child leads its own process group, so stopping it also stops what `npx` started under it.
      const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const signalGroup = (sig) => {
        try {
          process.kill(-child.pid, sig);
        } catch {
          /* already gone */
        }
      };
      const stop = () =>
        new Promise((r) => {
          if (child.exitCode !== null || child.signalCode !== null) return r();
          child.once('exit', () => r());
          signalGroup('SIGINT');
          setTimeout(() => signalGroup('SIGKILL'), 3000).unref();
        });
      let done = false;
      const onData = (buf) => {
        const text = buf.toString();
        for (const line of text.split('\n')) if (line.trim()) console.log(`[${name}] ${line}`);
        if (!done && ready.test(text)) {
          done = true;
          resolve({ stop });
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => {
        if (!done) reject(new Error(`${name} exited with code ${code} before it was ready`));
        else if (!stopping) {
          console.error(`[${name}] exited with code ${code}`);
          stopAll(1);
        }
      });
    });
  }

  try {
    // With a host link, LiveKit's only ICE candidate is the namespace end of that link (no loopback candidate:
    // 127.0.0.1 means the host's own loopback to a browser there), and signalling also listens on it for the forwarder.
    const lk = await startLivekit({
      port: LIVEKIT_PORT,
      ...(linkIp ? { nodeIp: linkIp, bind: ['127.0.0.1', linkIp], loopbackCandidate: false } : {}),
    });
    children.push(lk);
    const where = linkIp
      ? ` (private network namespace; ICE candidate ${linkIp}, the namespace end of the host link)`
      : inNetns
        ? ' (private network namespace)'
        : '';
    console.log(`[livekit] listening on ${lk.url}${where}`);

    const emulator = await startChild(
      'emulator',
      'npx',
      [
        'tsx',
        'src/emulator/bin.ts',
        '--media',
        'on',
        '--port',
        String(EMULATOR_PORT),
        '--livekit-url',
        lk.url,
        '--livekit-api-key',
        LIVEKIT_KEYS.apiKey,
        '--livekit-api-secret',
        LIVEKIT_KEYS.apiSecret,
      ],
      /listening on http/,
    );
    children.push(emulator);

    const storybook = await startChild(
      'storybook',
      'npx',
      ['storybook', 'dev', '-p', String(STORYBOOK_PORT), '--host', '127.0.0.1', '--no-open', '--ci'],
      /Storybook.*started|Local:\s+http/i,
      { LIVEAI_UPSTREAM_URL: `http://127.0.0.1:${EMULATOR_PORT}`, LIVEKIT_URL: lk.url },
    );
    children.push(storybook);
    if (linkIp) {
      // The host's forwarders connect to the namespace end of the link; Storybook and the local service listen on
      // the namespace's loopback.
      for (const port of [STORYBOOK_PORT, EMULATOR_PORT]) {
        const fwd = await forwardTcp({ listenHost: linkIp, port, target: '127.0.0.1' });
        children.push({ stop: async () => fwd.close() });
      }
    }

    mkdirSync('.cache', { recursive: true });
    writeFileSync('.cache/dev.pid', String(process.pid));
    // Ready means the story renders: Storybook listens long before its Vite has optimized the dependencies.
    console.log('[dev] loading the playground once (on a first run Vite optimizes dependencies now)…');
    const story = await waitForStory(`http://127.0.0.1:${STORYBOOK_PORT}/iframe.html?id=live-playground--widget&viewMode=story`);
    if (story.rendered) console.log(`[dev] the playground renders (${(story.ms / 1000).toFixed(1)} s)`);
    else console.log(`[dev] could not check that the playground renders (${story.reason}); its first load may take a while`);
    const url = `http://127.0.0.1:${STORYBOOK_PORT}/?path=/story/live-playground--widget`;
    console.log(`\n  liveai-kit playground ready: ${url}\n`);
    console.log(`  local avatar service: http://127.0.0.1:${EMULATOR_PORT} (fault injection: POST /__emulator/faults)\n`);
    if (linkIp)
      console.log(
        `  (services in a private network namespace; 127.0.0.1:${STORYBOOK_PORT}, :${LIVEKIT_PORT} and :${EMULATOR_PORT} on this machine forward to it)\n`,
      );
    else if (inNetns) console.log(`  (inside a private network namespace: nsenter -t $(cat .cache/dev.pid) -n node scripts/look.mjs)\n`);
  } catch (e) {
    console.error(`dev: ${e.message}`);
    await stopAll(1);
  }
}
