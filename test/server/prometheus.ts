import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort } from './helpers';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';

/** A real Prometheus server on loopback scraping `target` (host:port) every second, with its own temp storage. */
export async function startPrometheus(target: string, metricsPath = '/metrics') {
  const dir = await mkdtemp(join(tmpdir(), 'liveai-prom-'));
  const port = await closedPort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    '  - job_name: liveai-proxy',
    `    metrics_path: ${metricsPath}`,
    '    static_configs:',
    `      - targets: ['${target}']`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'prometheus.yml'), config);
  const proc: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  proc.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => reject(new Error(`prometheus exited (${code}): ${log}`))));
  // Ready once its HTTP API answers /-/ready with 200.
  await Promise.race([
    exited,
    (async () => {
      for (;;) {
        const ok = await fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    })(),
  ]);
  exited.catch(() => {});
  return {
    url,
    /** The value of an instant PromQL query that yields one sample (undefined when it yields none). */
    async value(query: string): Promise<number | undefined> {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await res.json()) as { status: string; data: { result: { value: [number, string] }[] }; error?: string };
      if (body.status !== 'success') throw new Error(`PromQL ${query}: ${body.error}`);
      const first = body.data.result[0];
      return first ? Number(first.value[1]) : undefined;
    },
    /** Every sample of an instant PromQL query, by the value of `label`. */
    async byLabel(query: string, label: string): Promise<Record<string, number>> {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      return Object.fromEntries(body.data.result.map((r) => [r.metric[label] ?? '', Number(r.value[1])]));
    },
    /** Resolves once Prometheus scraped the target at least once after this call (its `up` sample is newer). */
    async nextScrape(): Promise<void> {
      const since = Date.now() / 1000;
      for (;;) {
        const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent('timestamp(up)')}`);
        const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
        const at = Number(body.data.result[0]?.value[1] ?? 0);
        if (at > since) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode === null ? proc.once('exit', r) : r(null)));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
