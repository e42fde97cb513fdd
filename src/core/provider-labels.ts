import { LiveAiError } from './errors';

/**
 * The two media providers by their neutral labels, as the service names them unless it is given labels:
 * `rtc-a` (LiveKit rooms) and `rtc-b` (Daily rooms).
 * @public
 */
export type NeutralProvider = 'rtc-a' | 'rtc-b';

/**
 * The names a service uses on the wire for its two media providers, e.g. `{ 'rtc-a': 'livekit', 'rtc-b': 'daily' }`.
 * A label is lower case: a letter, then letters, digits or single hyphens (`livekit`, `my-rtc`).
 * A label shapes every identifier of its provider:
 *
 * | identifier | neutral (`rtc-a`) | labelled (`livekit`) |
 * |---|---|---|
 * | `transport_type` | `rtc-a`, `websocket-rtc-a` | `livekit`, `websocket-livekit` |
 * | properties object key | `rtc_a_properties` | `livekit_properties` |
 * | property names | `rtc_a_url`, `rtc_a_token` | `livekit_url`, `livekit_token` |
 * | list `provider` value | `RTC_A` | `LIVEKIT` |
 * @public
 */
export type ProviderLabels = Partial<Record<NeutralProvider, string>>;

/**
 * The option as users give it: an object, or the flag form `rtc-a=livekit,rtc-b=daily`.
 * @public
 */
export type ProviderLabelsInput = ProviderLabels | string;

const LABEL = /^[a-z](?:[a-z0-9]|-(?=[a-z0-9]))*$/;
const NEUTRAL: readonly NeutralProvider[] = ['rtc-a', 'rtc-b'];

const bad = (detail: string): never => {
  throw new LiveAiError('invalid_request', `providerLabels: ${detail}`, { status: 400 });
};

/**
 * Validates `providerLabels` (object or `rtc-a=livekit,rtc-b=daily`) and fills in the neutral default for a
 * provider it does not name.
 * @throws LiveAiError `invalid_request` for an unknown provider, a malformed label, a label starting with
 * `websocket` or two providers sharing a label.
 */
export function resolveProviderLabels(input: ProviderLabelsInput | undefined): Record<NeutralProvider, string> {
  let given: Record<string, unknown> = {};
  if (typeof input === 'string') {
    for (const part of input.split(',').filter((p) => p.trim() !== '')) {
      const [k, v, ...rest] = part.split('=').map((s) => s.trim());
      if (!k || v === undefined || rest.length)
        bad(`expected provider=label pairs like rtc-a=livekit,rtc-b=daily, got ${JSON.stringify(part)}`);
      given[k as string] = v;
    }
  } else if (input !== undefined && input !== null) {
    if (typeof input !== 'object' || Array.isArray(input)) bad('must be an object like { "rtc-a": "livekit" } or a string rtc-a=livekit');
    given = { ...input };
  }
  const out: Record<NeutralProvider, string> = { 'rtc-a': 'rtc-a', 'rtc-b': 'rtc-b' };
  for (const [k, v] of Object.entries(given)) {
    if (!NEUTRAL.includes(k as NeutralProvider)) bad(`unknown provider ${JSON.stringify(k)}: use rtc-a or rtc-b`);
    if (typeof v !== 'string' || !LABEL.test(v))
      bad(`label ${JSON.stringify(v)} of ${k} must be lower case letters, digits and single hyphens, starting with a letter`);
    if ((v as string).startsWith('websocket')) bad(`label ${JSON.stringify(v)} of ${k} must not start with "websocket"`);
    out[k as NeutralProvider] = v as string;
  }
  if (out['rtc-a'] === out['rtc-b']) bad(`rtc-a and rtc-b must have different labels, both are ${JSON.stringify(out['rtc-a'])}`);
  return out;
}

const keyOf = (label: string) => label.replace(/-/g, '_');
const isIdentity = (l: Record<NeutralProvider, string>) => l['rtc-a'] === 'rtc-a' && l['rtc-b'] === 'rtc-b';

/**
 * Renames provider identifiers in wire objects between the neutral labels and a service's labels (see
 * {@link ProviderLabels}). Pure: returns new objects, never mutates its input.
 */
export interface ProviderRenamer {
  /** The resolved labels (both providers). */
  readonly labels: Readonly<Record<NeutralProvider, string>>;
  /** True when both labels are the neutral ones (every method is then the identity). */
  readonly neutral: boolean;
  /** A session-creation body in neutral terms → the same body in the service's labels. */
  bodyToWire(body: Record<string, unknown>): Record<string, unknown>;
  /** A session-creation body in the service's labels → neutral terms (keys of other providers are left as they are). */
  bodyFromWire(body: Record<string, unknown>): Record<string, unknown>;
  /** The `transport_type` values the service accepts under these labels, e.g. `livekit`, `websocket-livekit`. */
  readonly transportTypes: readonly string[];
  /** A list `provider` value: `RTC_A` → `LIVEKIT`. */
  providerToWire(value: string | null | undefined): string | null | undefined;
  /** A list `provider` value: `LIVEKIT` → `RTC_A` (unknown values unchanged). */
  providerFromWire(value: string | null | undefined): string | null | undefined;
  /** Rewrites neutral identifiers in a human-readable text (an error `detail`) into the service's labels. */
  textToWire(text: string): string;
}

/** Builds a {@link ProviderRenamer}; see {@link resolveProviderLabels} for the accepted input and its errors. */
export function providerRenamer(input?: ProviderLabelsInput): ProviderRenamer {
  const labels = resolveProviderLabels(input);
  const pairs = NEUTRAL.map((n) => ({ n, l: labels[n], nk: keyOf(n), lk: keyOf(labels[n]) }));
  const transport = (v: unknown, to: boolean): unknown => {
    if (typeof v !== 'string') return v;
    for (const { n, l } of pairs) {
      const [from, dest] = to ? [n, l] : [l, n];
      if (v === from) return dest;
      if (v === `websocket-${from}`) return `websocket-${dest}`;
    }
    return v;
  };
  const renameKeys = (o: unknown, to: boolean): unknown => {
    if (!o || typeof o !== 'object' || Array.isArray(o)) return o;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      let key = k;
      // longest prefix first, so `my_rtc_url` is not read as `my_` + `rtc_url`
      for (const { nk, lk } of [...pairs].sort((x, y) => (to ? y.nk.length - x.nk.length : y.lk.length - x.lk.length))) {
        const [from, dest] = to ? [nk, lk] : [lk, nk];
        if (k.startsWith(`${from}_`)) {
          key = dest + k.slice(from.length);
          break;
        }
      }
      out[key] = v;
    }
    return out;
  };
  const body = (b: Record<string, unknown>, to: boolean): Record<string, unknown> => {
    if (isIdentity(labels) || !b || typeof b !== 'object') return b;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(renameKeys(b, to) as Record<string, unknown>)) {
      if (k === 'transport_type') out[k] = transport(v, to);
      else if (k === 'properties' || k.endsWith('_properties')) out[k] = renameKeys(v, to);
      else out[k] = v;
    }
    return out;
  };
  const upper = (s: string) => keyOf(s).toUpperCase();
  return {
    labels,
    neutral: isIdentity(labels),
    transportTypes: pairs.flatMap((p) => [p.l, `websocket-${p.l}`]),
    bodyToWire: (b) => body(b, true),
    bodyFromWire: (b) => body(b, false),
    providerToWire: (v) =>
      pairs
        .find((p) => upper(p.n) === v)
        ?.l.replace(/-/g, '_')
        .toUpperCase() ?? v,
    providerFromWire: (v) =>
      v == null
        ? v
        : (pairs
            .find((p) => upper(p.l) === v)
            ?.n.replace(/-/g, '_')
            .toUpperCase() ?? v),
    textToWire: (text) =>
      isIdentity(labels)
        ? text
        : text.replace(/(?<![A-Za-z0-9])(rtc|RTC)([-_])([abAB])(?![A-Za-z0-9])/g, (m, rtc: string, sep: string, x: string) => {
            const l = labels[`rtc-${x.toLowerCase()}` as NeutralProvider];
            if (rtc === 'RTC') return upper(l);
            return sep === '_' ? keyOf(l) : l;
          }),
  };
}
