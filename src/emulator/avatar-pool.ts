/**
 * Media avatars in child processes: a pool of avatar hosts (`media/host.ts`), each running the avatars of some
 * sessions, so that many avatars use every core of the machine. Sessions talk to a {@link RemoteAvatar}, which has
 * the same interface as an avatar in this process.
 *
 * Why processes and not worker threads: `@livekit/rtc-node` keeps one FFI server per process and delivers its
 * events to the first JS thread that loaded it, so a Room made in a second worker thread never connects.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ErrorCode, LiveAiError } from '../core/index';
import type { EmulatorLogger } from './logger';
import type { FromHost, HostCall, HostError, HostJoinOptions, ToHost } from './media/host-protocol';
import type { AvatarMedia, AvatarMediaOptions, Demeanour, JoinAvatar } from './media/types';

/** Longest wait for the avatars of a closing pool to leave their rooms, ms. */
const CLOSE_GRACE_MS = 5000;

/** The host script: `media/host.ts` next to this file (sources), `media/host.js` in the built package. */
function hostEntry(): string {
  for (const candidate of ['./media/host.ts', './media/host.js', '../media/host.js']) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new LiveAiError('missing_peer', 'the avatar host script (media/host.js) is missing from the emulator package');
}

const toError = (e: HostError): Error => (e.code ? new LiveAiError(e.code as ErrorCode, e.message) : new Error(e.message));

type Callbacks = Pick<
  AvatarMediaOptions,
  'onAppMessage' | 'onParticipantJoined' | 'onDisconnected' | 'onAgentAudio' | 'onWarning' | 'onOutage'
>;

/** An avatar running in a host process: forwards calls there and reports its callbacks here. */
class RemoteAvatar implements AvatarMedia {
  identity = '';
  private framesSent = 0;
  private fps = 0;
  private outageTotal = 0;
  private outageSince: number | null = null;
  private closing: Promise<void> | null = null;
  ended = false;

  constructor(
    readonly host: AvatarHost,
    readonly id: number,
    readonly callbacks: Callbacks,
  ) {}

  publishEvent(event: { type: string; [k: string]: unknown }, to?: string[]): Promise<void> {
    return this.call({ method: 'publishEvent', args: to ? [event, to] : [event] });
  }

  speak(text: string): Promise<void> {
    return this.call({ method: 'speak', args: [text] });
  }

  playPcm(samples: Int16Array): void {
    if (samples instanceof Int16Array && samples.length > 0) this.post({ t: 'playPcm', id: this.id, samples });
  }

  setImage(image: Uint8Array): Promise<void> {
    return this.call({ method: 'setImage', args: [image] });
  }

  rejoin(): Promise<void> {
    return this.call({ method: 'rejoin', args: [] });
  }

  setDemeanour(demeanour: Demeanour): void {
    this.post({ t: 'setDemeanour', id: this.id, demeanour: { ...demeanour } });
  }

  playAction(name: string): void {
    this.post({ t: 'playAction', id: this.id, name: String(name ?? '') });
  }

  stats(): { framesSent: number; fps: number } {
    return { framesSent: this.framesSent, fps: this.fps };
  }

  outageMs(): number {
    return this.outageTotal + (this.outageSince === null ? 0 : performance.now() - this.outageSince);
  }

  close(): Promise<void> {
    this.closing ??= this.ended
      ? Promise.resolve()
      : this.host
          .call(this.id, { method: 'close', args: [] })
          .catch(() => {})
          .finally(() => {
            this.end();
            this.host.forget(this.id);
          });
    return this.closing;
  }

  /** Called by the host on each report. */
  onStats(framesSent: number, fps: number): void {
    this.framesSent = framesSent;
    this.fps = fps;
  }

  onOutage(active: boolean): void {
    const now = performance.now();
    if (active) this.outageSince ??= now;
    else if (this.outageSince !== null) {
      this.outageTotal += now - this.outageSince;
      this.outageSince = null;
    }
  }

  /** The avatar left for good (lost its room, or its process died): later calls do nothing. */
  end(): void {
    this.ended = true;
    this.onOutage(false);
  }

  private call(c: HostCall): Promise<void> {
    return this.ended ? Promise.resolve() : this.host.call(this.id, c);
  }

  private post(m: ToHost): void {
    if (!this.ended) this.host.post(m);
  }
}

type Pending = { resolve: () => void; reject: (e: Error) => void };

/** One host process and the avatars it runs. */
class AvatarHost {
  private readonly child: ChildProcess;
  private readonly avatars = new Map<number, RemoteAvatar>();
  private readonly joins = new Map<number, { avatar: RemoteAvatar; resolve: (a: RemoteAvatar) => void; reject: (e: Error) => void }>();
  private readonly calls = new Map<number, Pending>();
  private nextCall = 1;
  /** Messages posted before the host said it is ready (it loads rtc-node and sharp first). */
  private early: ToHost[] | null = [];
  dead = false;

  constructor(
    private readonly logger: EmulatorLogger,
    private readonly onExit: (host: AvatarHost) => void,
  ) {
    const entry = hostEntry();
    const debug = process.env.LIVEAI_RTC_DEBUG === '1';
    this.child = fork(entry, [], {
      // Sources run through tsx (tests, development); the package runs its built script.
      execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
      // rtc-node prints debug lines on stdout unless NODE_ENV is production when it loads (see avatar.ts).
      env: debug ? process.env : { ...process.env, NODE_ENV: 'production' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // The host must not keep the emulator's process alive; the emulator's server does that.
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
    this.child.on('message', (m: FromHost) => this.receive(m));
    this.child.on('error', (e) => this.logger.warn({ err: e.message }, 'avatar process error'));
    this.child.on('exit', (code, signal) => this.exited(code, signal));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Avatars running or joining here. */
  get load(): number {
    return this.avatars.size + this.joins.size;
  }

  join(id: number, options: HostJoinOptions, callbacks: Callbacks): Promise<RemoteAvatar> {
    const avatar = new RemoteAvatar(this, id, callbacks);
    return new Promise<RemoteAvatar>((resolve, reject) => {
      this.joins.set(id, { avatar, resolve, reject });
      this.post({ t: 'join', id, options });
    });
  }

  /** The avatar `id` has left: it no longer counts towards this host's load. */
  forget(id: number): void {
    this.avatars.delete(id);
  }

  call(id: number, c: HostCall): Promise<void> {
    if (this.dead) return Promise.resolve();
    const call = this.nextCall++;
    return new Promise<void>((resolve, reject) => {
      this.calls.set(call, { resolve, reject });
      this.post({ t: 'call', id, call, ...c } as ToHost);
    });
  }

  post(m: ToHost): void {
    if (this.dead || !this.child.connected) return;
    if (this.early) {
      this.early.push(m);
      return;
    }
    this.child.send(m, (e) => e && this.logger.debug({ err: e.message }, 'avatar process message not sent'));
  }

  private receive(m: FromHost): void {
    if (m.t === 'ready') {
      const early = this.early ?? [];
      this.early = null;
      for (const e of early) this.post(e);
    } else if (m.t === 'joined') {
      const j = this.joins.get(m.id);
      if (!j) return;
      this.joins.delete(m.id);
      j.avatar.identity = m.identity;
      this.avatars.set(m.id, j.avatar);
      j.resolve(j.avatar);
    } else if (m.t === 'joinFailed') {
      const j = this.joins.get(m.id);
      this.joins.delete(m.id);
      j?.reject(toError(m.error));
    } else if (m.t === 'result') {
      const p = this.calls.get(m.call);
      this.calls.delete(m.call);
      if (m.error) p?.reject(toError(m.error));
      else p?.resolve();
    } else if (m.t === 'stats') {
      for (const [id, frames, fps] of m.list) this.avatars.get(id)?.onStats(frames, fps);
    } else if (m.t === 'callback') {
      const avatar = this.avatars.get(m.id) ?? this.joins.get(m.id)?.avatar;
      if (!avatar) return;
      if (m.name === 'onOutage') avatar.onOutage(m.args[0]);
      if (m.name === 'onDisconnected') {
        avatar.end();
        this.avatars.delete(m.id);
      }
      const cb = avatar.callbacks[m.name] as ((...a: unknown[]) => void) | undefined;
      try {
        cb?.(...m.args);
      } catch {
        /* a session's handler must not break the host's message loop */
      }
    }
  }

  /** The process ended: joins fail, calls settle, every avatar it ran reports its room lost. */
  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.dead = true;
    this.onExit(this);
    const why = `the avatar process exited (${signal ?? `code ${code}`})`;
    if (this.avatars.size > 0 || this.joins.size > 0) this.logger.warn({ avatars: this.load }, why);
    for (const j of this.joins.values()) j.reject(new LiveAiError('transport_failed', why));
    this.joins.clear();
    for (const p of this.calls.values()) p.resolve();
    this.calls.clear();
    const lost = [...this.avatars.values()];
    this.avatars.clear();
    for (const a of lost) {
      a.end();
      try {
        a.callbacks.onDisconnected?.(why);
      } catch {
        /* as above */
      }
    }
  }

  /** Ends the process: at once when it runs no avatar, else once they left (at most CLOSE_GRACE_MS). */
  async close(): Promise<void> {
    if (this.dead) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const calls = [...this.calls.values()];
    if (calls.length > 0 || this.load > 0) {
      const settled = Promise.all([...this.avatars.values()].map((a) => a.close()));
      await Promise.race([settled, new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
    }
    this.child.disconnect?.();
    const killer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS).unref();
    await exited;
    clearTimeout(killer);
  }

  /** Test hook: kills the process as a crash would. */
  kill(): void {
    this.child.kill('SIGKILL');
  }
}

/** Avatars spread over up to `processes` host processes. */
export class AvatarPool {
  private readonly hosts: AvatarHost[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly processes: number,
    private readonly logger: EmulatorLogger,
  ) {}

  /** Starts the first host now, so the first session does not wait for a process to start. */
  warm(): void {
    if (this.hosts.length === 0 && !this.closed) this.spawn();
  }

  /** `joinAvatar` in the least busy host (starting one while fewer than `processes` run and all are busy). */
  readonly join: JoinAvatar = (options) => {
    if (this.closed) return Promise.reject(new LiveAiError('transport_failed', 'the local avatar service is closing'));
    const { onAppMessage, onParticipantJoined, onDisconnected, onAgentAudio, onWarning, onOutage, ...rest } = options;
    const host = this.pick();
    // Start the next process ahead of the next session while every running one has avatars.
    if (this.hosts.length < this.processes && this.hosts.every((h) => h.load > 0 || h === host)) this.spawn();
    return host.join(this.nextId++, rest, { onAppMessage, onParticipantJoined, onDisconnected, onAgentAudio, onWarning, onOutage });
  };

  /** Process ids of the host processes running now (the bench measures their CPU). */
  get pids(): number[] {
    return this.hosts.map((h) => h.pid).filter((p): p is number => p !== undefined);
  }

  /** Test hook: kills the process that runs `media` as a crash would; false when `media` runs in none. */
  crashHostOf(media: AvatarMedia | null): boolean {
    if (!(media instanceof RemoteAvatar) || media.ended) return false;
    media.host.kill();
    return true;
  }

  /** Ends every host process after its avatars have left their rooms. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.hosts.map((h) => h.close()));
  }

  private pick(): AvatarHost {
    let best: AvatarHost | undefined;
    for (const h of this.hosts) if (!best || h.load < best.load) best = h;
    return best && (best.load === 0 || this.hosts.length >= this.processes) ? best : this.spawn();
  }

  private spawn(): AvatarHost {
    const host = new AvatarHost(this.logger, (h) => {
      const i = this.hosts.indexOf(h);
      if (i >= 0) this.hosts.splice(i, 1);
    });
    this.hosts.push(host);
    return host;
  }
}
