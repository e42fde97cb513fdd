#!/usr/bin/env node
// How many sessions the local service (media off) holds at once, and what that costs it: N sessions created at
// once (50 in flight), each read once, then each ended, in this process.
//   npx tsx scripts/soak/service-capacity.ts [N=5000]
// Prints sessions created / read / ended per second, the heap per running session, and the timers the service holds
// while they run and after they ended (one idle timer per running session, none after).
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { createEmulator } from '../../src/emulator/index';

/** What `serviceCapacity` measured. */
export interface ServiceCapacity {
  sessions: number;
  createdPerS: number;
  readPerS: number;
  endedPerS: number;
  heapPerRunningSessionKB: number;
  timersWhileRunning: number;
  timersAfter: number;
}

export async function serviceCapacity(N: number): Promise<ServiceCapacity> {
  const emulator = await createEmulator({
    port: 0,
    media: false,
    queueMs: 300,
    keepFinishedSessions: 1_000_000,
    seed: { accounts: [{ api_key: 'k', credits: 1e9, agents: [{ agent_id: 'a', image_url: '/liveai/assets/a.png' }] }] },
  });
  const agent = new Agent({ connections: 64 });
  const gc = () => (globalThis as { gc?: () => void }).gc?.();
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const inParallel = async (each: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < N) await each(next++);
      }),
    );
  };

  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const ids: string[] = [];
  let t = performance.now();
  await inParallel(async () => {
    const res = await request(`${emulator.url}/liveai/sessions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'a', transport_type: 'rtc-b', properties: { rtc_b_url: 'https://x.daily.co/r', rtc_b_token: 't' } }),
    });
    ids.push(((await res.body.json()) as { session_id: string }).session_id);
  });
  const createS = (performance.now() - t) / 1000;
  await new Promise((r) => setTimeout(r, 1000)); // every session ACTIVE
  gc();
  const heap1 = process.memoryUsage().heapUsed;
  const timersRunning = timers();
  t = performance.now();
  await inParallel(async (i) => {
    const res = await request(`${emulator.url}/liveai/sessions/${ids[i]}`, { dispatcher: agent, headers: { 'x-api-key': 'k' } });
    await res.body.dump();
  });
  const readS = (performance.now() - t) / 1000;
  t = performance.now();
  await inParallel(async (i) => {
    const res = await request(`${emulator.url}/liveai/sessions/${ids[i]}/control`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: '{"event":"terminate"}',
    });
    await res.body.dump();
  });
  const endS = (performance.now() - t) / 1000;
  const out = {
    sessions: N,
    createdPerS: Math.round(N / createS),
    readPerS: Math.round(N / readS),
    endedPerS: Math.round(N / endS),
    heapPerRunningSessionKB: Number(((heap1 - heap0) / N / 1024).toFixed(2)),
    timersWhileRunning: timersRunning,
    timersAfter: timers(),
  };
  await agent.close();
  await emulator.close();
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await serviceCapacity(Number(process.argv[2] ?? 5000))));
