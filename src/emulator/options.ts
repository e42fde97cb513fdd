import * as z from 'zod';
import { DEFAULT_EVENT_TOPIC, IMAGE_CHANGE_TYPICAL_MS, LiveAiError } from '../core/index';
import { formatZodError, type ProviderLabelsInput, providerRenamer, type ProviderRenamer } from '../core/internal';
import { FaultsPatchSchema, NO_FAULTS, type Faults } from './faults';
import { silentLogger, type EmulatorLogger } from './logger';
import type { SeedInput } from './seed';
import type { ImageHosts } from './download';

/**
 * LiveKit server the avatar joins and hosted rooms are created on. `apiSecret` is a secret.
 * @public
 */
export interface LivekitConfig {
  url: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * Options of `createEmulator`. Times in ms unless the name says `S` (seconds).
 * @public
 */
export interface EmulatorOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** TCP port; 0 picks a free one. Default 4010. */
  port?: number;
  /** Seed object or path to a seed JSON file. Default: the built-in seed. */
  seed?: SeedInput | string;
  /** Join a real LiveKit room with a synthetic avatar. Default false (the bin defaults to on). */
  media?: boolean;
  /** Default `{url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'secret'}`. */
  livekit?: Partial<LivekitConfig>;
  /** Time a session spends QUEUED, ms. Default 1500. */
  queueMs?: number;
  /** Delay from `image_created` to `image_change_complete`, ms. Default 600. */
  imageChangeMs?: number;
  /** Idle timeout, seconds (fractions allowed). Default 300. */
  idleTimeoutS?: number;
  /** Data-message topic of events. Default `liveai`. */
  eventTopic?: string;
  /** Credits charged per minute of ACTIVE time, pro rata. Default 1. */
  creditsPerMinute?: number;
  /** Timeout of image downloads (update-image, agent_image_url), ms. Default 5000. */
  imageFetchTimeoutMs?: number;
  /**
   * Which hosts image downloads may reach: `public` (default: public addresses only; loopback, link-local,
   * private and other special addresses refused), `loopback` (127.0.0.0/8 and ::1 only; the tests use it so that
   * fuzzed URLs never leave the machine), `any` (everything, e.g. an image server on your LAN), or a list of host
   * names (`images.example.com`, `*.cdn.example`) at public addresses. The seed's own image URLs are always allowed.
   */
  imageHosts?: ImageHosts;
  /**
   * Extra `Host` header names the HTTP server answers to (default none). It always answers to IP addresses,
   * to the name it listens on, and to `localhost`; any other name gets 403, so a web page cannot reach it
   * through DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /**
   * Page origins (`https://app.example.com`) whose scripts may open a session's audio WebSocket
   * (`websocket_address`) directly. Default none: an upgrade that carries an `Origin` header (every browser sends
   * one) gets 403, so only servers (a proxy relaying the browser's audio, your own backend) connect.
   */
  allowedOrigins?: readonly string[];
  /** Audio WebSockets open at once on one session, at most (default 2); one more gets 429. */
  maxSocketsPerSession?: number;
  /** Finished sessions kept for status reads and lists, at most this many (default 1000); older ones are forgotten. */
  keepFinishedSessions?: number;
  /** Finished sessions are forgotten after this many ms (default 3600000 = 1 hour). */
  keepFinishedMs?: number;
  /** Longest wait for the media avatar to join, ms. Default 20000. */
  joinTimeoutMs?: number;
  /**
   * Hold the answer of `POST /liveai/rooms` and `POST /liveai/sessions` until the session is ACTIVE (media on: the
   * avatar is in the room, publishing) or has ended, as a service with a warm avatar pool answers. Default false.
   */
  answerWhenActive?: boolean;
  /**
   * Media on: how many child processes run the avatars (each avatar in one of them, a new one in the least busy),
   * so rendering and encoding use every core. `0` (the default) runs them in the emulator's own process. Worth it for
   * many concurrent avatars on a machine with free cores. Processes start as avatars need them; one that dies ends
   * only its own sessions (`FAILED`).
   */
  avatarProcesses?: number;
  /** Initial fault injection, see `Faults`. */
  faults?: Partial<Faults>;
  /** pino-compatible logger; silent by default. */
  logger?: EmulatorLogger;
  /**
   * The names of the two media providers on the wire, e.g. `{ 'rtc-a': 'livekit', 'rtc-b': 'daily' }` or
   * `'rtc-a=livekit,rtc-b=daily'`. Every identifier follows them: `transport_type` values, `*_properties` keys,
   * property names and list `provider` values. Default: the neutral labels `rtc-a` and `rtc-b`.
   */
  providerLabels?: ProviderLabelsInput;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  seed: SeedInput | string | undefined;
  media: boolean;
  livekit: LivekitConfig;
  queueMs: number;
  imageChangeMs: number;
  idleTimeoutS: number;
  eventTopic: string;
  creditsPerMinute: number;
  imageFetchTimeoutMs: number;
  imageHosts: ImageHosts;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  maxSocketsPerSession: number;
  keepFinishedSessions: number;
  keepFinishedMs: number;
  joinTimeoutMs: number;
  answerWhenActive: boolean;
  avatarProcesses: number;
  faults: Faults;
  logger: EmulatorLogger;
  /** Renames provider identifiers between the neutral labels and `providerLabels`. */
  labels: ProviderRenamer;
}

const ms = z
  .number()
  .int()
  .min(0)
  .max(24 * 3600 * 1000);
const NumbersSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(4010),
  media: z.boolean().default(false),
  queueMs: ms.default(1500),
  imageChangeMs: ms.default(IMAGE_CHANGE_TYPICAL_MS),
  idleTimeoutS: z
    .number()
    .positive()
    .max(24 * 3600)
    .default(300),
  eventTopic: z.string().min(1).default(DEFAULT_EVENT_TOPIC),
  creditsPerMinute: z.number().min(0).finite().default(1),
  imageFetchTimeoutMs: ms.min(1).default(5000),
  imageHosts: z.union([z.enum(['public', 'loopback', 'any']), z.array(z.string().min(1)).readonly()]).default('public'),
  allowedHosts: z.array(z.string().min(1)).readonly().default([]),
  allowedOrigins: z
    .array(z.string().regex(/^https?:\/\/[^/\s]+$/i, 'must be origins like https://app.example.com'))
    .readonly()
    .default([]),
  maxSocketsPerSession: z.number().int().min(1).max(100).default(2),
  keepFinishedSessions: z.number().int().min(0).max(1_000_000).default(1000),
  keepFinishedMs: ms.default(3600_000),
  joinTimeoutMs: ms.min(1).default(20_000),
  answerWhenActive: z.boolean().default(false),
  avatarProcesses: z.number().int().min(0).max(64).default(0),
  livekit: z
    .object({ url: z.url({ protocol: /^(wss?|https?)$/ }), apiKey: z.string().min(1), apiSecret: z.string().min(1) })
    .partial()
    .default({}),
  faults: FaultsPatchSchema.default({}),
});

/**
 * Applies defaults and validates the options.
 * @throws LiveAiError `invalid_request` naming the bad option.
 */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const { seed, logger, providerLabels, ...rest } = options;
  const labels = providerRenamer(providerLabels);
  const parsed = NumbersSchema.safeParse(rest);
  if (!parsed.success) throw new LiveAiError('invalid_request', `invalid emulator options: ${formatZodError(parsed.error)}`);
  const o = parsed.data;
  return {
    ...o,
    seed,
    logger: logger ?? silentLogger,
    labels,
    livekit: { url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'secret', ...o.livekit },
    faults: { ...NO_FAULTS, ...o.faults },
  };
}
