import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { createEmulator } from '../../src/emulator/index';
import { listen, proxyApp, proxyOptions, waitFor, type Emulator } from './helpers';
import { PROMETHEUS_BIN, startPrometheus } from './prometheus';
import { writeResult } from '../setup/results';

/**
 * A real Prometheus server scrapes a running proxy (its OpenTelemetry instruments through the OpenTelemetry
 * Prometheus exporter) while sessions are created, refused and ended against the real local service; PromQL over
 * Prometheus's HTTP API gives the counts and the credits the service reported.
 */
const present = existsSync(PROMETHEUS_BIN);
if (!present && process.env.CI === 'true') throw new Error(`${PROMETHEUS_BIN} is missing (apt-get install prometheus)`);

describe.skipIf(!present)('metrics scraped by Prometheus', () => {
  let emulator: Emulator;
  let proxy: Awaited<ReturnType<typeof listen>>;
  let metricsServer: Awaited<ReturnType<typeof listen>>;
  let prom: Awaited<ReturnType<typeof startPrometheus>>;
  let provider: MeterProvider;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    // 600 credits a minute: a session of a second costs ~10 credits, so the sums are far from zero.
    emulator = await createEmulator({ port: 0, media: false, queueMs: 30, creditsPerMinute: 600 });
    const exporter = new PrometheusExporter({ preventServerStart: true });
    provider = new MeterProvider({ readers: [exporter] });
    const metricsApp = express();
    metricsApp.get('/metrics', (req, res) => exporter.getMetricsRequestHandler(req, res));
    metricsServer = await listen(metricsApp);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    proxy = await listen(
      proxyApp(
        proxyOptions(emulator.url, {
          agents: ['agent-demo', 'agent-cartoon'],
          sessionLimits: { maxConcurrent: 2 },
          // The longest idle timeout a browser may ask for (the second session asks for 3 s).
          idleTimeoutSeconds: 300,
          metrics: { meterProvider: provider },
          logger: pino({ level: 'info' }, sink),
        }),
      ),
    );
    prom = await startPrometheus(new URL(metricsServer.url).host);
  });
  afterAll(async () => {
    await prom?.stop();
    await proxy?.close();
    await metricsServer?.close();
    await provider?.shutdown();
    await emulator?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${proxy.url}/api/avatar${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const status = async (s: { session_id: string; client_token: string }) => {
    const res = await fetch(`${proxy.url}/api/avatar/sessions/${encodeURIComponent(s.session_id)}`, {
      headers: { authorization: `Bearer ${s.client_token}` },
    });
    return (await res.json()) as { session_status: string; cost?: number };
  };

  it('counts creates, refusals, ends, credits, service calls and the start time', async () => {
    type Created = { session_id: string; client_token: string };
    const a = (await (await post('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' })).json()) as Created;
    // The service ends this one itself after 3 s of idleness.
    const b = (await (await post('/sessions', { agent_id: 'agent-cartoon', transport_type: 'rtc-a', idle_timeout: 3 })).json()) as Created;
    // The proxy sees both go ACTIVE (their start time).
    await waitFor(async () => ((await status(a)).session_status === 'ACTIVE' ? true : undefined));
    await waitFor(async () => ((await status(b)).session_status === 'ACTIVE' ? true : undefined));
    expect((await post('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' })).status).toBe(429);
    expect((await post('/sessions', { agent_id: 'agent-bob', transport_type: 'rtc-a' })).status).toBe(403);
    expect(
      (await post('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' }, { origin: 'https://elsewhere.example' })).status,
    ).toBe(403);

    // Two sessions run: Prometheus sees the gauge at 2.
    expect(await waitFor(async () => ((await prom.value('liveai_sessions_running')) === 2 ? true : undefined), 20_000)).toBe(true);

    expect((await post(`/sessions/${encodeURIComponent(a.session_id)}/end`, { client_token: a.client_token })).status).toBe(200);
    const costA = await waitFor(async () => (await status(a)).cost);
    const costB = await waitFor(async () => (await status(b)).cost, 20_000);
    expect(costA).toBeGreaterThan(0);
    expect(costB).toBeGreaterThan(0);

    // Both ends reached Prometheus.
    await waitFor(async () => ((await prom.value('sum(liveai_sessions_ended_total)')) === 2 ? true : undefined), 30_000);
    await prom.nextScrape();

    const seen = {
      created: await prom.byLabel('sum by (liveai_agent) (liveai_sessions_created_total)', 'liveai_agent'),
      refused: await prom.byLabel('sum by (liveai_limit) (liveai_sessions_refused_total)', 'liveai_limit'),
      ended: await prom.byLabel('sum by (liveai_end_reason) (liveai_sessions_ended_total)', 'liveai_end_reason'),
      credits: await prom.value('sum(liveai_credits_spent_total)'),
      creditsByAgent: await prom.byLabel('sum by (liveai_agent) (liveai_credits_spent_total)', 'liveai_agent'),
      sessionSeconds: await prom.value('sum(liveai_session_time_total)'),
      starts: await prom.value('sum(liveai_session_start_duration_count)'),
      creates: await prom.value(
        'sum(liveai_service_request_duration_count{http_route="/liveai/sessions",http_request_method="POST",http_response_status_code="201"})',
      ),
      running: await prom.value('liveai_sessions_running'),
    };
    writeResult('server/ops-prometheus.json', { promql: seen, serviceReportedCosts: [costA, costB] });
    expect(seen.created).toEqual({ 'agent-demo': 1, 'agent-cartoon': 1 });
    expect(seen.refused).toEqual({ client_running: 1, agent: 1, origin: 1 });
    expect(seen.ended).toEqual({ user: 1, service_ended: 1 });
    expect(seen.credits).toBeCloseTo(costA + costB, 6);
    expect(seen.creditsByAgent).toEqual({ 'agent-demo': costA, 'agent-cartoon': costB });
    expect(seen.sessionSeconds).toBeGreaterThan(1);
    expect(seen.starts).toBe(2);
    expect(seen.creates).toBe(2);
    expect(seen.running).toBe(0);

    // No visitor address and no session id is ever a label.
    const exposition = await (await fetch(`${metricsServer.url}/metrics`)).text();
    expect(exposition).not.toContain('127.0.0.1');
    expect(exposition).not.toMatch(/session_id|sessionId/);

    // The log events say the same.
    const events = (name: string) => lines.filter((l) => l.event === name);
    expect(events('session.created').map((l) => l.agent)).toEqual(['agent-demo', 'agent-cartoon']);
    expect(events('create.refused').map((l) => l.limit)).toEqual(['client_running', 'agent', 'origin']);
    const ended = events('session.ended');
    expect(ended.map((l) => [l.reason, l.agent, l.cost])).toEqual(
      expect.arrayContaining([
        ['user', 'agent-demo', costA],
        ['service_ended', 'agent-cartoon', costB],
      ]),
    );
    expect(JSON.stringify(lines)).not.toContain('127.0.0.1');
  });
});
