#!/usr/bin/env node
// Avatar media benchmark: N synthetic avatars (the emulator's `--media on` avatars) in N
// LiveKit rooms, one subscriber per room counting decoded video frames. Prints per-avatar fps, min and median.
//
//   node scripts/bench-avatars.mjs [--n 8] [--seconds 10] [--warmup 3] [--processes P] [--cpu-prof FILE] [--json]
//
// Besides fps it reports the avatar processes' CPU time per avatar-second (ms) and its split by thread (the
// JavaScript main thread, libwebrtc's video encoder queue, its audio encoder, network and worker threads, the Rust
// runtime...), which is far less sensitive to other load on the machine than fps. --cpu-prof FILE writes a V8
// profile of this process's JavaScript over the measuring window (use with --processes 0 so the avatars run here;
// summarise it with scripts/bench/cpuprofile-top.mjs FILE --by package).
//
// It re-runs itself inside the private network namespace (scripts/netns-run.sh) when needed: rtc-node offers
// no loopback ICE candidates. The avatars run as the emulator runs them: spread over its avatar processes
// (AvatarPool; --processes as the emulator's avatarProcesses, default the number of cores, at most 4; 0 = all in
// this process, the emulator's default); the subscribers run in child processes, 4 rooms each (like viewers elsewhere).
// Nothing here is a test assertion: it only measures. Tokens are never printed.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './bench/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const self = fileURLToPath(import.meta.url);

/** Runs `node scripts/bench-avatars.mjs …args` (inside the namespace) and resolves with its JSON result. */
function runChild(args, { input, netns, timeoutMs = 300_000 }) {
  const cmd = netns ? [resolve(here, 'netns-run.sh'), process.execPath, self, ...args] : [process.execPath, self, ...args];
  return new Promise((ok, fail) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    // A run that hangs (a room that never connects on an overloaded machine) must not hold the bench forever.
    const guard = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', () => clearTimeout(guard));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        ok(JSON.parse(line));
      } catch {
        fail(new Error(`bench child exited with ${code} without a result`));
      }
    });
    child.stdin.end(input ?? '');
  });
}

/** Rooms one viewer process joins. */
const VIEWERS_PER_PROCESS = 4;

const readStdin = async () => {
  let s = '';
  for await (const c of process.stdin) s += c;
  return s;
};

/** Subscriber side (child process): joins each room, counts decoded frames during the measuring window. */
async function subscribe({ url, rooms, warmupMs, measureMs }) {
  const { Room, RoomEvent, TrackKind, VideoStream } = await import('@livekit/rtc-node');
  const counters = rooms.map(() => ({ frames: 0, width: 0, height: 0, counting: false }));
  const viewers = await Promise.all(
    rooms.map(async ({ token }, i) => {
      const room = new Room();
      room.on(RoomEvent.TrackSubscribed, async (track) => {
        if (track.kind !== TrackKind.KIND_VIDEO) return;
        const c = counters[i];
        for await (const ev of new VideoStream(track)) {
          c.width = ev.frame.width;
          c.height = ev.frame.height;
          if (c.counting) c.frames++;
        }
      });
      await room.connect(url, token, { autoSubscribe: true, dynacast: false });
      return room;
    }),
  );
  await new Promise((r) => setTimeout(r, warmupMs));
  for (const c of counters) c.counting = true;
  const t0 = performance.now();
  const from = Date.now();
  const cpu0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, measureMs));
  const seconds = (performance.now() - t0) / 1000;
  const to = Date.now();
  const u = process.cpuUsage(cpu0);
  const viewerCpuPercent = ((u.user + u.system) / 1000 / (to - from)) * 100;
  // `from`/`to` (epoch ms): the avatar side takes its sent fps and CPU over this same window.
  const result = counters.map((c, k) => ({
    fps: c.frames / seconds,
    frames: c.frames,
    width: c.width,
    height: c.height,
    from,
    to,
    viewerCpuPercent: k === 0 ? viewerCpuPercent : 0,
  }));
  // Leaving may hang on a loaded machine; the counts are taken, and the process ends right after.
  await Promise.race([Promise.all(viewers.map((v) => v.disconnect().catch(() => {}))), new Promise((r) => setTimeout(r, 5000))]);
  return result;
}

async function testImage(k) {
  const sharp = (await import('sharp')).default;
  const hue = (k * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560">
    <rect width="368" height="560" fill="hsl(${hue},45%,80%)"/>
    <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/>
    <circle cx="118" cy="213" r="15" fill="#fff"/><circle cx="250" cy="213" r="15" fill="#fff"/>
    <circle cx="118" cy="213" r="8" fill="#2a2a2a"/><circle cx="250" cy="213" r="8" fill="#2a2a2a"/>
    <rect x="60" y="470" width="248" height="120" rx="60" fill="hsl(${(hue + 180) % 360},40%,45%)"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** CPU time (user + system) of processes `pids`, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* exited */
    }
  }
  return ticks * 10;
}

/**
 * CPU time (user + system, ms) of every thread of processes `pids`, summed by thread kind: the thread's name
 * (Linux /proc/<pid>/task/<tid>/comm, 15 characters) with trailing digits and separators dropped, so libwebrtc's
 * encoder queues, the Rust runtime's workers and Node's own threads each add up to one line.
 */
function cpuMsByThread(pids) {
  const out = new Map();
  for (const pid of pids) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name =
          tid === String(pid)
            ? 'main (JavaScript)'
            : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[-_ #:]*\d*$/, '') || '?';
        const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
        out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
      } catch {
        /* thread ended */
      }
    }
  }
  return out;
}

/** Avatar side (inside the namespace): LiveKit, N avatars speaking now and then, subscribers in a child. */
async function benchInNamespace({ n, seconds, warmup, processes, cpuProf }) {
  const { register } = await import('tsx/esm/api');
  register();
  const { AvatarPool } = await import('../src/emulator/avatar-pool.ts');
  const { availableParallelism } = await import('node:os');
  const procs = processes ?? Math.min(availableParallelism(), 4);
  const pool = procs > 0 ? new AvatarPool(procs, { debug() {}, info() {}, warn: console.error, error: console.error }) : null;
  pool?.warm();
  const joinAvatar = pool ? pool.join : (await import('../src/emulator/media/index.ts')).joinAvatar;
  const avatarPids = () => [process.pid, ...(pool?.pids ?? [])];
  const { AccessToken } = await import('livekit-server-sdk');
  const { installLivekit, startLivekit, LIVEKIT_KEYS } = await import('./livekit.mjs');
  installLivekit({ quiet: true });
  const lk = await startLivekit();
  const token = (room, identity) => {
    const t = new AccessToken(LIVEKIT_KEYS.apiKey, LIVEKIT_KEYS.apiSecret, { identity, ttl: '10m' });
    t.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
    return t.toJwt();
  };
  const avatars = [];
  try {
    for (let k = 0; k < n; k++) {
      const room = `bench-${k}`;
      avatars.push(
        await joinAvatar({
          livekitUrl: lk.url,
          token: await token(room, `liveai-avatar-bench-${k}`),
          image: await testImage(k),
          eventTopic: 'liveai',
        }),
      );
    }
    // Half the avatars talk and everyone moves now and then, so the numbers include speech and actions.
    const chatter = setInterval(() => {
      avatars.forEach((a, k) => {
        if (k % 2 === 0) void a.speak('Hello there! This is a benchmark sentence with a few syllables.');
        if (Math.random() < 0.3) a.playAction(['wave', 'nod', 'jump', 'spin', 'bow'][k % 5]);
      });
    }, 4000);
    const rooms = await Promise.all(avatars.map((_, k) => token(`bench-${k}`, `bench-viewer-${k}`).then((t) => ({ token: t }))));
    // Sent frame rate (stats().fps, a 2 s window) and the avatar processes' CPU, sampled every 500 ms; the ones
    // inside the viewers' counting window are used.
    const samples = [];
    const sampler = setInterval(
      () =>
        samples.push({
          at: Date.now(),
          cpuMs: cpuMsOf(avatarPids()),
          lkMs: cpuMsOf([lk.process.pid]),
          threads: cpuMsByThread(avatarPids()),
          fps: avatars.map((a) => a.stats().fps),
        }),
      500,
    );
    // --cpu-prof: a V8 CPU profile of this process (the avatars' JavaScript when they run here, --processes 0)
    // over the measuring window (the viewers count after `warmup` s).
    const profiled = cpuProf ? profileWindow(warmup * 1000, seconds * 1000, cpuProf) : null;
    // Viewers in processes of at most VIEWERS_PER_PROCESS rooms: rtc-node hands every event of a process to every
    // room and stream in it, so one process decoding 16 streams spent its time on that and sometimes never finished.
    const groups = [];
    for (let k = 0; k < rooms.length; k += VIEWERS_PER_PROCESS) groups.push(rooms.slice(k, k + VIEWERS_PER_PROCESS));
    const measured = (
      await Promise.all(
        groups.map((group) =>
          runChild(['--subscribe'], {
            netns: false,
            timeoutMs: (warmup + seconds) * 1000 + 120_000,
            input: JSON.stringify({ url: lk.url, rooms: group, warmupMs: warmup * 1000, measureMs: seconds * 1000 }),
          }),
        ),
      )
    ).flat();
    clearInterval(chatter);
    clearInterval(sampler);
    await profiled;
    const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const fps = measured.map((m) => m.fps);
    const from = Math.max(...measured.map((m) => m.from));
    const to = Math.min(...measured.map((m) => m.to));
    const inside = samples.filter((x) => x.at >= from && x.at <= to);
    const first = inside[0];
    const last = inside.at(-1);
    const span = first && last && last.at > first.at ? last.at - first.at : null;
    const cpuPercent = span ? ((last.cpuMs - first.cpuMs) / span) * 100 : null;
    const livekitCpuPercent = span ? ((last.lkMs - first.lkMs) / span) * 100 : null;
    // CPU per avatar-second, ms: the avatar processes' CPU time over the window ÷ (avatars × window length).
    const cpuMsPerAvatarSecond = span ? (last.cpuMs - first.cpuMs) / n / (span / 1000) : null;
    const threads = span
      ? Object.fromEntries(
          [...last.threads]
            .map(([name, ms]) => [name, (ms - (first.threads.get(name) ?? 0)) / n / (span / 1000)])
            .filter(([, v]) => v > 0)
            .sort((a, b) => b[1] - a[1]),
        )
      : null;
    return {
      n,
      seconds,
      processes: procs,
      perAvatar: measured.map(({ from: _f, to: _t, viewerCpuPercent: _v, ...m }, k) => ({
        ...m,
        sentFps: mean(inside.map((x) => x.fps[k])),
        framesSent: avatars[k].stats().framesSent,
      })),
      min: Math.min(...fps),
      median: fps.length ? median(fps) : 0,
      avatarProcessCpuPercent: cpuPercent,
      cpuMsPerAvatarSecond,
      cpuMsPerAvatarSecondByThread: threads,
      livekitCpuPercent,
      viewersCpuPercent: measured.reduce((a, m) => a + m.viewerCpuPercent, 0),
    };
  } finally {
    await Promise.all(avatars.map((a) => a.close()));
    await pool?.close();
    await lk.stop();
  }
}

/** Profiles this process's JavaScript from `afterMs` for `forMs` and writes the .cpuprofile to `file`. */
async function profileWindow(afterMs, forMs, file) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await new Promise((r) => setTimeout(r, afterMs));
  await session.post('Profiler.start');
  await new Promise((r) => setTimeout(r, forMs));
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
}

/**
 * Measures received frame rates of `n` avatars over `seconds` (after `warmup` s). Resolves with
 * `{n, seconds, perAvatar: [{fps, frames, width, height, sentFps, framesSent}], min, median}` (fps = frames/s).
 * Runs inside the network namespace, re-spawning itself through scripts/netns-run.sh when called outside.
 */
export async function measureAvatarFps({ n = 8, seconds = 10, warmup = 3, processes, cpuProf } = {}) {
  if (process.env.LIVEAI_IN_NETNS === '1') return benchInNamespace({ n, seconds, warmup, processes, cpuProf });
  const p = processes === undefined ? [] : ['--processes', String(processes)];
  const prof = cpuProf ? ['--cpu-prof', resolve(cpuProf)] : [];
  return runChild(['--n', String(n), '--seconds', String(seconds), '--warmup', String(warmup), ...p, ...prof, '--json'], {
    netns: true,
  });
}

/**
 * Prints the result line and ends this process at once. A plain process.exit() after rtc-node was used sometimes
 * never returned here (the process kept spinning a core for minutes after printing, its rooms already left),
 * which skews every later measurement on a 2-core machine; the rooms, LiveKit and the avatar processes are closed
 * before this.
 */
function printAndExit(line) {
  process.stdout.write(`${line}\n`, () => process.kill(process.pid, 'SIGKILL'));
}

function printTable(r) {
  console.log(
    `avatar fps over ${r.seconds} s, ${r.n} avatars in ${r.n} rooms (one subscriber each), ${r.processes ? `${r.processes} avatar processes` : 'avatars in one process'}`,
  );
  console.log('avatar  received fps  frames  size      sent fps');
  r.perAvatar.forEach((a, k) =>
    console.log(
      `${String(k).padEnd(7)} ${a.fps.toFixed(2).padStart(12)}  ${String(a.frames).padStart(6)}  ${`${a.width}x${a.height}`.padEnd(8)}  ${a.sentFps.toFixed(2).padStart(8)}`,
    ),
  );
  console.log(`min ${r.min.toFixed(2)} fps, median ${r.median.toFixed(2)} fps`);
  if (r.avatarProcessCpuPercent !== null)
    console.log(
      `CPU, % of one core: avatar processes ${r.avatarProcessCpuPercent.toFixed(0)} (rendering, encoding, audio), LiveKit ${r.livekitCpuPercent?.toFixed(0)}, viewers ${r.viewersCpuPercent.toFixed(0)} (decoding)`,
    );
  if (r.cpuMsPerAvatarSecond !== null) {
    console.log(`avatar processes' CPU per avatar-second: ${r.cpuMsPerAvatarSecond.toFixed(1)} ms, by thread:`);
    for (const [name, v] of Object.entries(r.cpuMsPerAvatarSecondByThread)) console.log(`  ${v.toFixed(1).padStart(6)} ms  ${name}`);
  }
}

if (process.argv[1] === self) {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '8' },
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      processes: { type: 'string' },
      json: { type: 'boolean', default: false },
      subscribe: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
  });
  if (values.subscribe) {
    printAndExit(JSON.stringify(await subscribe(JSON.parse(await readStdin()))));
  }
  const result = await measureAvatarFps({
    n: Number(values.n),
    seconds: Number(values.seconds),
    warmup: Number(values.warmup),
    processes: values.processes === undefined ? undefined : Number(values.processes),
    cpuProf: values['cpu-prof'],
  });
  if (values.json) printAndExit(JSON.stringify(result));
  else printTable(result);
  process.exit(0);
}
