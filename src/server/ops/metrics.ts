import type { ProxyEvent, ProxyEvents } from './events';
import { nodeRequire } from '../peers';

/**
 * Attributes of one measurement (OpenTelemetry's `Attributes`, the subset the proxy uses).
 * @public
 */
export type MetricAttributes = Record<string, string | number>;

/**
 * The part of an OpenTelemetry `MeterProvider` the proxy uses: any provider from `@opentelemetry/api` or an SDK
 * (`@opentelemetry/sdk-metrics`) fits. Declared here so that the proxy's types need no OpenTelemetry package.
 * @public
 */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}

/**
 * The part of an OpenTelemetry `Meter` the proxy uses.
 * @public
 */
export interface MeterLike {
  createCounter(name: string, options?: InstrumentOptions): { add(value: number, attributes?: MetricAttributes): void };
  createHistogram(name: string, options?: InstrumentOptions): { record(value: number, attributes?: MetricAttributes): void };
  createObservableGauge(
    name: string,
    options?: InstrumentOptions,
  ): { addCallback(callback: (result: { observe(value: number, attributes?: MetricAttributes): void }) => void | Promise<void>): void };
}

/**
 * Description, unit and (for histograms) bucket advice of an instrument, as OpenTelemetry's `MetricOptions`.
 * @public
 */
export interface InstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/**
 * The `metrics` option of the proxy: `false` turns the instruments off; `meterProvider` names the provider to use
 * instead of the global one that `@opentelemetry/api` holds.
 * @public
 */
export interface MetricsOptions {
  meterProvider?: MeterProviderLike;
}

/** Name and version of the meter, as OpenTelemetry's instrumentation scope. */
export const METER_NAME = 'liveai-kit';

/** Buckets of the time from create to `ACTIVE` (cold starts take up to 2.5 min), s. */
const START_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 90, 120, 150, 180, 300];
/** Buckets of the service's answer times, s. */
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const OTEL_API = '@opentelemetry/api';

/**
 * The global `MeterProvider` of `@opentelemetry/api`, or undefined when that optional package is not installed or
 * the runtime has no module loader (Cloudflare Workers, Vercel Edge: pass `metrics: { meterProvider }` there).
 * Loaded through Node's `require` (Node, Deno, Bun), so no bundler and no Worker sees an import it cannot resolve,
 * and nothing Node-only runs when this module loads. OpenTelemetry keeps its global provider on `globalThis`, so
 * the one an app registered through its ESM copy is the one found here.
 */
async function globalProvider(): Promise<MeterProviderLike | undefined> {
  try {
    const api = nodeRequire()?.(OTEL_API) as { metrics?: { getMeterProvider(): MeterProviderLike } } | undefined;
    return api?.metrics?.getMeterProvider();
  } catch {
    return undefined;
  }
}

/** Ways of the proxy the instruments observe besides the events. */
export interface MetricSources {
  /** Sessions running now (every instance together with a shared store), or undefined when unknown. */
  running(): Promise<number | undefined>;
}

/**
 * Subscribes OpenTelemetry instruments to `events`. With `meterProvider` they exist at once; otherwise the global
 * provider of `@opentelemetry/api` is looked up, and the instruments are made on the first event after it loaded
 * (so an SDK registered before the first request is used). Without the package, nothing is measured.
 */
export function attachMetrics(events: ProxyEvents, options: MetricsOptions, sources: MetricSources, version?: string): void {
  let record: ((e: ProxyEvent) => void) | undefined;
  let provider: MeterProviderLike | undefined = options.meterProvider;
  let loading = provider === undefined;
  const queue: ProxyEvent[] = [];
  if (loading) {
    void globalProvider().then((p) => {
      provider = p;
      loading = false;
      if (p) for (const e of queue.splice(0)) measure(e);
      queue.length = 0;
    });
  }
  function measure(e: ProxyEvent) {
    if (!record) {
      if (!provider) return;
      record = instruments(provider.getMeter(METER_NAME, version), sources);
    }
    record(e);
  }
  events.on((e) => {
    if (loading) {
      if (queue.length < 1000) queue.push(e);
      return;
    }
    measure(e);
  });
}

function instruments(meter: MeterLike, sources: MetricSources): (e: ProxyEvent) => void {
  const created = meter.createCounter('liveai.sessions.created', {
    description: 'Sessions and hosted rooms the proxy created at the service',
    unit: '{session}',
  });
  const ended = meter.createCounter('liveai.sessions.ended', { description: 'Sessions that ended, by end reason', unit: '{session}' });
  const refusedC = meter.createCounter('liveai.sessions.refused', {
    description: 'Creates the proxy refused before calling the service, by the limit that refused them',
    unit: '{session}',
  });
  const time = meter.createCounter('liveai.session.time', { description: 'Session time, from create to end', unit: 's' });
  const credits = meter.createCounter('liveai.credits.spent', {
    description: 'Credits the service charged (its cost on COMPLETED)',
    unit: '{credit}',
  });
  const start = meter.createHistogram('liveai.session.start.duration', {
    description: 'Time from the create to the first status read that answered ACTIVE (queue and cold start)',
    unit: 's',
    advice: { explicitBucketBoundaries: START_BUCKETS },
  });
  const calls = meter.createHistogram('liveai.service.request.duration', {
    description: "Calls to the avatar service, by route and status, with the service's answer time",
    unit: 's',
    advice: { explicitBucketBoundaries: CALL_BUCKETS },
  });
  const storeErrors = meter.createCounter('liveai.store.errors', {
    description: 'Store (Redis) commands that failed or timed out',
    unit: '{error}',
  });
  meter
    .createObservableGauge('liveai.sessions.running', {
      description: 'Sessions running now, as the store counts them (every instance together with a shared store)',
      unit: '{session}',
    })
    .addCallback(async (result) => {
      const n = await sources.running().catch(() => undefined);
      if (n !== undefined) result.observe(n);
    });
  return (e) => {
    switch (e.name) {
      case 'session.created':
        created.add(1, { 'liveai.agent': e.agent, 'liveai.transport': e.transport });
        return;
      case 'session.active':
        start.record(e.seconds, { 'liveai.agent': e.agent });
        return;
      case 'session.ended':
        ended.add(1, { 'liveai.agent': e.agent, 'liveai.end_reason': e.reason });
        time.add(e.seconds, { 'liveai.agent': e.agent });
        if (e.cost !== null) credits.add(e.cost, { 'liveai.agent': e.agent });
        return;
      case 'create.refused':
        refusedC.add(1, { 'liveai.limit': e.limit });
        return;
      case 'service.call':
        calls.record(e.ms / 1000, {
          'http.request.method': e.method,
          'http.route': e.route,
          'http.response.status_code': e.status,
          ...(e.error ? { 'error.type': e.error } : e.status >= 500 ? { 'error.type': String(e.status) } : {}),
        });
        return;
      case 'store.error':
        storeErrors.add(1, { 'liveai.store.operation': e.op, 'error.type': e.error });
        return;
    }
  };
}
