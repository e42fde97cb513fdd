import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { proxyApp, proxyOptions, startEmulator, waitFor, type Emulator } from './helpers';

/**
 * Without the `metrics` option the proxy measures through the global MeterProvider of @opentelemetry/api, as an app
 * registers it; with `metrics: false` it measures nothing even then.
 */
let emulator: Emulator;
let provider: MeterProvider;
let reader: PeriodicExportingMetricReader;
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);

beforeAll(async () => {
  emulator = await startEmulator();
  reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
});
afterAll(async () => {
  metrics.disable();
  await provider.shutdown();
  await emulator.close();
});

/** The value of counter `name` summed over its series, as the SDK collected it now. */
async function counter(name: string): Promise<number | undefined> {
  const { resourceMetrics } = await reader.collect();
  const found = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return found?.dataPoints.reduce((n, p) => n + (p.value as number), 0);
}

describe('metrics through the global MeterProvider', () => {
  it('counts a create without any metrics option, and nothing with metrics: false', async () => {
    const off = proxyApp(proxyOptions(emulator.url, { metrics: false }));
    expect((await request(off).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).status).toBe(201);
    const app = proxyApp(proxyOptions(emulator.url));
    expect((await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).status).toBe(201);
    // The optional package loads with a dynamic import: the create is counted once it has loaded.
    expect(await waitFor(async () => counter('liveai.sessions.created'))).toBe(1);
  });
});
