// Main-thread work between two performance marks of a page, from a Chromium performance trace (CDP Tracing).
// Used by e2e.ts --profile: the CPU time the renderer's main thread spent from the Start click (`bench-click`) to the
// first presented video frame (`bench-first-frame`) — thread time (`tdur`), not wall time, so time spent waiting for
// a core on a loaded machine does not count — split into script compile / evaluate, the rest of scripting, style +
// layout (ms); and the same tasks' wall time.
// And by e2e.ts --threads: the busy time of every Chromium thread (main, compositor, raster workers, WebRTC, the GPU
// process's display compositor, …) from the click to the create answer (`bench-create-answered`) and from there to
// the first frame. On a machine where the page shares its cores with the service, every thread's work counts.
import type { CDPSession, Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'v8'].join(',');

export interface MainThreadWork {
  /**
   * CPU time of the main thread's top-level tasks inside the window (the trace's thread clock, `tdur`), ms: what the
   * page itself costs, without the time its thread waited for a core on a loaded machine.
   */
  cpuMs: number;
  /** The same tasks' wall time (`dur`), ms: includes waiting for a core. */
  busyMs: number;
  /** Script compilation and top-level evaluation (chunks arriving), thread CPU ms. */
  compileEvalMs: number;
  /** Other JavaScript (event handlers, callbacks, microtasks), thread CPU ms. */
  scriptMs: number;
  /** Style recalculation and layout, thread CPU ms. */
  styleLayoutMs: number;
  /** The window itself (click → first frame in the trace's clock), ms. */
  windowMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, µs; Chromium records it on Linux. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Busy ms of one kind of Chromium thread (threads of one name summed): [click → create answered, → first frame]. */
export type ThreadWork = Record<string, [number, number]>;

export async function startTrace(
  page: Page,
  categories = CATEGORIES,
  jsProfile = !!process.env.LIVEAI_BENCH_JS_PROFILE,
): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', { categories, transferMode: 'ReturnAsStream' });
  if (jsProfile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  return cdp;
}

/** The part of a V8 CPU profile (CDP `Profiler.stop`) read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { url: string; functionName: string } }>;
  samples?: number[];
  timeDeltas?: number[];
}

/** `LIVEAI_BENCH_JS_PROFILE=1`: JavaScript self time by script file (top 12), from the click to the first frame. */
function jsByScript(profile: CpuProfile): string {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const n = byId.get(id)!;
    const url = n.callFrame.url.replace(/^.*\//, '') || `(${n.callFrame.functionName || 'native'})`;
    const key = `${url} ${n.callFrame.functionName}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  return [...self]
    .filter(([k]) => !k.includes('(idle)') && !k.includes('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join('; ');
}

/**
 * Ends a trace started by `startTrace`: the main thread's work from the click to the first frame. With `dump` (a file
 * path; e2e.ts --profile-dir) it also writes that window for scripts/bench/profile-window.mjs: the click and first-frame
 * times, the JavaScript profile (started with `jsProfile`) and the main thread's trace events inside the window.
 */
export async function stopTrace(cdp: CDPSession, dump?: string): Promise<MainThreadWork> {
  const profile = process.env.LIVEAI_BENCH_JS_PROFILE || dump ? (await cdp.send('Profiler.stop')).profile : undefined;
  if (profile && process.env.LIVEAI_BENCH_JS_PROFILE) process.stderr.write(`  js self time: ${jsByScript(profile)}\n`);
  const events = await readTrace(cdp);
  if (dump) {
    const click = mark(events, 'bench-click');
    const frame = mark(events, 'bench-first-frame');
    const main = mainThreadOf(events, click.pid);
    const tasks = main.filter((e) => e.ts + (e.dur ?? 0) > click.ts && e.ts < frame.ts);
    writeFileSync(dump, JSON.stringify({ click: click.ts, frame: frame.ts, profile, tasks }));
  }
  return mainThreadWork(events);
}

/** For --threads: every thread's top-level tasks (no JavaScript profile: `stopThreadTrace` would not read it). */
export const startThreadTrace = (page: Page) => startTrace(page, 'toplevel,blink.user_timing,__metadata', false);

export async function stopThreadTrace(cdp: CDPSession): Promise<ThreadWork> {
  return threadWork(await readTrace(cdp));
}

async function readTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream!)));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  await cdp.detach();
  return (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
}

/** The page's performance mark `name` (probe.js) in the trace. */
const mark = (events: TraceEvent[], name: string): TraceEvent => {
  const found = events.find((e) => e.name === name);
  if (!found) throw new Error(`trace has no ${name} mark`);
  return found;
};

function threadWork(events: TraceEvent[]): ThreadWork {
  const [click, answered, frame] = ['bench-click', 'bench-create-answered', 'bench-first-frame'].map((n) => mark(events, n).ts) as [
    number,
    number,
    number,
  ];
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && (e.name === 'process_name' || e.name === 'thread_name'))
      names.set(`${e.name}:${e.pid}/${e.name === 'process_name' ? '' : e.tid}`, e.args?.name ?? '');
  const tasks = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || !/RunTask$/.test(e.name)) continue;
    const key = `${e.pid}/${e.tid}`;
    (tasks.get(key) ?? tasks.set(key, []).get(key)!).push(e);
  }
  const work: ThreadWork = {};
  for (const [key, onThread] of tasks) {
    const [pid] = key.split('/');
    const name = `${names.get(`process_name:${pid}/`) ?? pid}: ${(names.get(`thread_name:${key}`) ?? 'unnamed').replace(/\d+$/, '')}`;
    const [pre, post] = work[name] ?? [0, 0];
    work[name] = [pre + covered(onThread, click, answered), post + covered(onThread, answered, frame)];
  }
  return work;
}

/** Time covered by `events` inside [from, to], nested and overlapping events counted once, ms. */
function covered(events: TraceEvent[], from: number, to: number): number {
  const spans = events
    .map((e) => [Math.max(e.ts, from), Math.min(e.ts + (e.dur ?? 0), to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of spans) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total / 1000;
}

/**
 * Thread CPU time of `events` inside [from, to], ms: the outermost events only (a nested one is part of its parent's
 * `tdur`), each event's `tdur` scaled by the share of its wall time inside the window. An event without `tdur` counts
 * its wall time.
 */
function cpuIn(events: TraceEvent[], from: number, to: number): number {
  const sorted = events.filter((e) => e.ph === 'X').sort((x, y) => x.ts - y.ts || (y.dur ?? 0) - (x.dur ?? 0));
  let total = 0;
  let outerEnd = -Infinity;
  for (const e of sorted) {
    const end = e.ts + (e.dur ?? 0);
    if (end <= outerEnd) continue; // inside the previous outermost event
    outerEnd = end;
    const inside = Math.min(end, to) - Math.max(e.ts, from);
    if (inside <= 0) continue;
    const share = e.dur ? inside / e.dur : 1;
    total += (e.tdur ?? e.dur ?? 0) * share;
  }
  return total / 1000;
}

/** The complete events of the renderer's main thread of process `pid`. */
function mainThreadOf(events: TraceEvent[], pid: number): TraceEvent[] {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === pid);
  return events.filter((e) => e.ph === 'X' && e.pid === pid && (!main || e.tid === main.tid));
}

function mainThreadWork(events: TraceEvent[]): MainThreadWork {
  const click = mark(events, 'bench-click');
  const frame = mark(events, 'bench-first-frame');
  const onMain = mainThreadOf(events, click.pid);
  const named = (names: string[]) => onMain.filter((e) => names.includes(e.name));
  const cpu = (names: string[]) => cpuIn(named(names), click.ts, frame.ts);
  const tasks = ['RunTask', 'ThreadControllerImpl::RunTask'];
  const compile = ['v8.compile', 'v8.compileModule', 'EvaluateScript', 'v8.evaluateModule'];
  const compileEvalMs = cpu(compile);
  const scriptMs = Math.max(
    0,
    cpu([...compile, 'FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'V8.Execute', 'RunMicrotasks']) - compileEvalMs,
  );
  const styleLayoutMs = cpu(['UpdateLayoutTree', 'Layout', 'RecalculateStyles', 'ParseAuthorStyleSheet']);
  return {
    cpuMs: cpu(tasks),
    busyMs: covered(named(tasks), click.ts, frame.ts),
    compileEvalMs,
    scriptMs,
    styleLayoutMs,
    windowMs: (frame.ts - click.ts) / 1000,
  };
}
