import { parseArgs } from 'node:util';
import type { EmulatorOptions } from './options';

/** Usage text of `liveai-emulator --help`. */
export const USAGE = `Usage: liveai-emulator [flags]

Local avatar service implementing the whole Avatar Session Service interface (docs/emulator.md).

  --host HOST                  interface to listen on (default 127.0.0.1)
  --port PORT                  TCP port, 0 = any free port (default 4010)
  --seed FILE                  seed JSON file (default: built-in seed, printed at start)
  --media on|off               join LiveKit rooms with a synthetic avatar (default on when a LiveKit
                               server answers at --livekit-url, else off with a note)
  --livekit-url URL            LiveKit server (default ws://127.0.0.1:7880)
  --livekit-api-key KEY        LiveKit API key (default devkey)
  --livekit-api-secret SECRET  LiveKit API secret (default secret)
  --queue-ms MS                time a session stays QUEUED (default 1500)
  --image-change-ms MS         image_created -> image_change_complete delay (default 600)
  --idle-timeout-s S           idle timeout in seconds (default 300)
  --event-topic TOPIC          data-message topic of events (default liveai)
  --credits-per-minute N       credits charged per ACTIVE minute (default 1)
  --image-hosts POLICY         hosts image downloads may reach: public (default; no loopback, link-local
                               or private addresses), loopback, any, or a comma list of host names
  --allowed-hosts LIST         extra Host header names to answer to (comma list; IP addresses, the
                               --host name and localhost always work)
  --allowed-origins LIST       page origins that may open audio WebSockets directly (comma list;
                               default none: only servers, which send no Origin)
  --max-sockets N              audio WebSockets open at once per session (default 2)
  --keep-finished N            finished sessions kept for reads and lists (default 1000)
  --keep-finished-ms MS        finished sessions forgotten after MS (default 3600000)
  --answer-when-active         answer create calls once the avatar is in the room, publishing
  --avatar-processes N         child processes that run the avatars (default: CPU cores, at most 4;
                               0 runs them in the service's own process)
  --provider-labels LIST       provider names on the wire, e.g. rtc-a=livekit,rtc-b=daily
                               (default: the neutral rtc-a and rtc-b)
  --latency-ms MS              fault: delay every /liveai request
  --fail-rate R                fault: answer this share (0..1) of /liveai requests with 500
  --drop-rate R                fault: drop this share (0..1) of /liveai connections
  --next-session-outcome fail|timeout   fault: the next session ends FAILED / TIMED_OUT
  -h, --help                   show this help`;

/** A command-line mistake: the bin prints it with the usage and exits 2. */
export class CliError extends Error {}

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  seed: { type: 'string' },
  media: { type: 'string' },
  'livekit-url': { type: 'string' },
  'livekit-api-key': { type: 'string' },
  'livekit-api-secret': { type: 'string' },
  'queue-ms': { type: 'string' },
  'image-change-ms': { type: 'string' },
  'idle-timeout-s': { type: 'string' },
  'event-topic': { type: 'string' },
  'credits-per-minute': { type: 'string' },
  'image-hosts': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'allowed-origins': { type: 'string' },
  'max-sockets': { type: 'string' },
  'keep-finished': { type: 'string' },
  'keep-finished-ms': { type: 'string' },
  'answer-when-active': { type: 'boolean' },
  'avatar-processes': { type: 'string' },
  'provider-labels': { type: 'string' },
  'latency-ms': { type: 'string' },
  'fail-rate': { type: 'string' },
  'drop-rate': { type: 'string' },
  'next-session-outcome': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function num(flag: string, v: string | undefined, { int = false, min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (v === undefined) return undefined;
  const n = v.trim() === '' ? NaN : Number(v);
  if (!Number.isFinite(n) || (int && !Number.isInteger(n)) || n < min || n > max) {
    throw new CliError(`--${flag} must be ${int ? 'an integer' : 'a number'} between ${min} and ${max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

/**
 * Parses the bin's flags into `createEmulator` options (media defaults to on).
 * @throws CliError for unknown flags, missing values, positional arguments and out-of-range numbers.
 */
export function parseCli(argv: string[]): { help: boolean; options: EmulatorOptions } {
  let values: Partial<Record<keyof typeof FLAGS, string | boolean>>;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const s = (k: keyof typeof FLAGS) => values[k] as string | undefined;
  const media = s('media') ?? 'on';
  if (media !== 'on' && media !== 'off') throw new CliError(`--media must be on or off, got ${JSON.stringify(media)}`);
  const hostsFlag = s('image-hosts');
  if (hostsFlag === '') throw new CliError('--image-hosts must be public, loopback, any or a comma list of host names');
  const list = (v: string | undefined) =>
    v
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  const imageHosts =
    hostsFlag === undefined || ['public', 'loopback', 'any'].includes(hostsFlag)
      ? (hostsFlag as 'public' | 'loopback' | 'any' | undefined)
      : list(hostsFlag);
  const outcome = s('next-session-outcome');
  if (outcome !== undefined && outcome !== 'fail' && outcome !== 'timeout')
    throw new CliError(`--next-session-outcome must be fail or timeout, got ${JSON.stringify(outcome)}`);
  for (const k of ['host', 'seed', 'livekit-url', 'livekit-api-key', 'livekit-api-secret', 'event-topic'] as const) {
    if (s(k) === '') throw new CliError(`--${k} must not be empty`);
  }
  const livekit = { url: s('livekit-url'), apiKey: s('livekit-api-key'), apiSecret: s('livekit-api-secret') };
  const options: EmulatorOptions = {
    host: s('host'),
    port: num('port', s('port'), { int: true, max: 65535 }),
    seed: s('seed'),
    media: media === 'on',
    livekit: Object.fromEntries(Object.entries(livekit).filter(([, v]) => v !== undefined)),
    queueMs: num('queue-ms', s('queue-ms'), { int: true, max: 3_600_000 }),
    imageChangeMs: num('image-change-ms', s('image-change-ms'), { int: true, max: 3_600_000 }),
    idleTimeoutS: num('idle-timeout-s', s('idle-timeout-s'), { min: 0.001, max: 86_400 }),
    eventTopic: s('event-topic'),
    creditsPerMinute: num('credits-per-minute', s('credits-per-minute'), { max: 1e6 }),
    imageHosts,
    allowedHosts: list(s('allowed-hosts')),
    allowedOrigins: list(s('allowed-origins')),
    maxSocketsPerSession: num('max-sockets', s('max-sockets'), { int: true, min: 1, max: 100 }),
    keepFinishedSessions: num('keep-finished', s('keep-finished'), { int: true, max: 1_000_000 }),
    keepFinishedMs: num('keep-finished-ms', s('keep-finished-ms'), { int: true, max: 86_400_000 }),
    answerWhenActive: values['answer-when-active'] === true ? true : undefined,
    avatarProcesses: num('avatar-processes', s('avatar-processes'), { int: true, max: 64 }),
    providerLabels: s('provider-labels'),
    faults: {
      latencyMs: num('latency-ms', s('latency-ms'), { int: true, max: 60_000 }),
      failRate: num('fail-rate', s('fail-rate'), { max: 1 }),
      dropRate: num('drop-rate', s('drop-rate'), { max: 1 }),
      nextSessionOutcome: outcome ?? undefined,
    },
  };
  const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return { help: values.help === true, options: { ...clean(options), faults: clean(options.faults ?? {}) } };
}
