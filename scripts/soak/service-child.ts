// The local service of the soak, in its own process: `createEmulator` with media off, keeping every finished
// session (the invariants are checked against its records), behind a thin node:http front that counts the service
// calls by route (the proxies' status reads, controls, creates) before handing each request to the emulator's app.
// Answers `stats` on its IPC channel with those counts, its CPU time, memory and open handles.
import { createServer } from 'node:http';
import { createEmulator } from '../../src/emulator/index';

interface ServiceChildConfig {
  port: number;
  queueMs: number;
  idleTimeoutS: number;
  seed: unknown;
}
const config = JSON.parse(process.argv[2] ?? '{}') as ServiceChildConfig;

const emulator = await createEmulator({
  port: 0,
  media: false,
  queueMs: config.queueMs,
  idleTimeoutS: config.idleTimeoutS,
  keepFinishedSessions: 1_000_000,
  keepFinishedMs: 24 * 3600_000,
  seed: config.seed as never,
});

/** Service calls by route: `GET /liveai/sessions/:id`, `POST /liveai/sessions/:id/control`, … */
const calls = new Map<string, number>();
const routeOf = (method: string, url: string): string => {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith('/liveai/')) return 'other';
  return `${method} ${path.replace(/^\/liveai\/(sessions|rooms)\/[0-9a-f]{16}/, '/liveai/$1/:id')}`;
};
const front = createServer((req, res) => {
  const route = routeOf(req.method ?? 'GET', req.url ?? '/');
  calls.set(route, (calls.get(route) ?? 0) + 1);
  emulator.app(req, res);
});
front.keepAliveTimeout = 30_000;
// Longer than the balancer's idle time (4 s), so it never reuses a socket this server is closing: that race would
// fail a request (UND_ERR_SOCKET) for a reason no proxy has.
front.listen(config.port, '127.0.0.1', () => process.stdout.write(`READY http://127.0.0.1:${config.port}\n`));

process.on('message', (m: unknown) => {
  if (m !== 'stats' && m !== 'stats-gc') return;
  if (m === 'stats-gc') (globalThis as { gc?: () => void }).gc?.();
  const handles: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) handles[r] = (handles[r] ?? 0) + 1;
  process.send?.({ cpu: process.cpuUsage(), mem: process.memoryUsage(), handles, calls: Object.fromEntries(calls), now: Date.now() });
});
process.on('SIGTERM', () => {
  front.close();
  front.closeAllConnections();
  void emulator.close().finally(() => process.exit(0));
});
