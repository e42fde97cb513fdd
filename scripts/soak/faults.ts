// The faults of a soak run: scripted, each applied at its time (seconds after the load started) and repaired after
// its duration, every step logged with its time. The processes are those of scripts/soak/procs.ts.
import type { NodeChild, RedisProc } from './procs';
import { clock } from './visitors';

export type FaultKind =
  | 'proxy-kill'
  | 'redis-pause'
  | 'service-5xx'
  | 'service-slow'
  | 'service-timeout'
  | 'service-drop'
  | 'redis-kill-persist'
  | 'redis-kill-wipe'
  | 'clock-skew';

export interface FaultStep {
  kind: FaultKind;
  /** When it starts, s after the load started. */
  at: number;
  /** How long until it is repaired, s. */
  for: number;
}

/** What happened, with the run clock (ms since the run started) of the fault and of its repair. */
export interface FaultLog {
  kind: FaultKind;
  what: string;
  startedAt: number;
  repairedAt: number;
  startedIso: string;
  repairedIso: string;
}

export const FAULT_TEXT: Record<FaultKind, string> = {
  'proxy-kill': 'proxy instance 2 (Fetch handler) killed with SIGKILL, restarted',
  'redis-pause': 'Redis paused (SIGSTOP), then resumed (SIGCONT)',
  'service-5xx': 'the service answers half of its requests 500 (`failRate` 0.5; never control)',
  'service-slow': 'the service answers every request 1.5 s late (`latencyMs` 1500)',
  'service-timeout': "the service answers 6 s late, past the proxy's 4 s `upstream.timeoutMs` (`latencyMs` 6000)",
  'service-drop': 'the service drops 30 % of its connections without an answer (`dropRate` 0.3)',
  'redis-kill-persist': 'Redis killed with SIGKILL, restarted from its append-only file (fsync always)',
  'redis-kill-wipe': 'Redis killed with SIGKILL, restarted empty (no persistence: every counter, deadline and lock lost)',
  'clock-skew': "proxy instance 1's clock (Express) 3 s ahead of the other's, then stepped back",
};

export interface FaultTargets {
  proxies: NodeChild[];
  redis: RedisProc;
  serviceUrl: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setServiceFaults(url: string, patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${url}/__emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (!res.ok) throw new Error(`setting the service's faults failed: ${res.status}`);
}

/** Applies one fault, waits its duration, repairs it; returns its log entry. */
export async function runFault(step: FaultStep, t: FaultTargets, say: (line: string) => void): Promise<FaultLog> {
  const startedAt = clock();
  const startedIso = new Date().toISOString();
  say(`fault ${step.kind}: ${FAULT_TEXT[step.kind]}`);
  const hold = () => sleep(step.for * 1000);
  switch (step.kind) {
    case 'proxy-kill':
      await t.proxies[1]!.kill('SIGKILL');
      await hold();
      await t.proxies[1]!.start();
      break;
    case 'redis-pause':
      t.redis.signal('SIGSTOP');
      await hold();
      t.redis.signal('SIGCONT');
      break;
    case 'service-5xx':
      await setServiceFaults(t.serviceUrl, { failRate: 0.5 });
      await hold();
      await setServiceFaults(t.serviceUrl, { failRate: 0 });
      break;
    case 'service-slow':
      await setServiceFaults(t.serviceUrl, { latencyMs: 1500 });
      await hold();
      await setServiceFaults(t.serviceUrl, { latencyMs: 0 });
      break;
    case 'service-timeout':
      await setServiceFaults(t.serviceUrl, { latencyMs: 6000 });
      await hold();
      await setServiceFaults(t.serviceUrl, { latencyMs: 0 });
      break;
    case 'service-drop':
      await setServiceFaults(t.serviceUrl, { dropRate: 0.3 });
      await hold();
      await setServiceFaults(t.serviceUrl, { dropRate: 0 });
      break;
    case 'redis-kill-persist':
      await t.redis.kill();
      await hold();
      await t.redis.start({ persist: true });
      break;
    case 'redis-kill-wipe':
      await t.redis.kill();
      await hold();
      await t.redis.start({ persist: false });
      break;
    case 'clock-skew':
      t.proxies[0]!.send({ skewMs: 3000 });
      await hold();
      t.proxies[0]!.send({ skewMs: 0 });
      break;
  }
  const repairedAt = clock();
  say(`fault ${step.kind}: repaired after ${((repairedAt - startedAt) / 1000).toFixed(1)} s`);
  return { kind: step.kind, what: FAULT_TEXT[step.kind], startedAt, repairedAt, startedIso, repairedIso: new Date().toISOString() };
}
