import { CliError, USAGE, parseCli } from './cli';
import { createEmulator } from './index';
import { isLiveAiError } from '../core/index';
import type { EmulatorLogger } from './logger';
import { DEFAULT_LIVEKIT_URL, livekitHelp, livekitReachable } from './livekit-check';

/** A pino logger on stderr when pino is installed (optional peer), else warnings and errors as plain lines. */
function stderrLogger(level: string): Promise<EmulatorLogger> {
  const line = (lvl: string) => (obj: object | string, msg?: string) =>
    void process.stderr.write(`${lvl} ${msg ?? ''} ${JSON.stringify(obj)}\n`);
  const quiet = () => undefined;
  const plain: EmulatorLogger = { debug: quiet, info: quiet, warn: line('warn'), error: line('error') };
  return import('pino').then(
    ({ default: pino }): EmulatorLogger => {
      const log = pino({ level }, pino.destination(2));
      return {
        debug: (o, m) => log.debug(o, m),
        info: (o, m) => log.info(o, m),
        warn: (o, m) => log.warn(o, m),
        error: (o, m) => log.error(o, m),
      };
    },
    () => plain,
  );
}

/**
 * `liveai-emulator`: starts the local avatar service and prints `listening on http://HOST:PORT`.
 * Exit codes: 0 after SIGINT/SIGTERM, 1 when it cannot start (port in use, bad seed file), 2 for bad flags.
 */
async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseCli>;
  try {
    parsed = parseCli(argv);
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    process.stderr.write(`liveai-emulator: ${e.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const logger = await stderrLogger(process.env.LIVEAI_LOG_LEVEL ?? 'warn');
  if (parsed.options.media) {
    // Media needs a LiveKit server: check it now rather than failing the first room with a 500.
    const url = parsed.options.livekit?.url ?? DEFAULT_LIVEKIT_URL;
    if (!(await livekitReachable(url))) {
      if (argv.some((a) => a === '--media' || a.startsWith('--media='))) {
        process.stderr.write(`liveai-emulator: cannot start with --media on: ${livekitHelp(url)}\n`);
        process.exit(1);
      }
      process.stderr.write(`liveai-emulator: ${livekitHelp(url)}\n  Starting with media off.\n`);
      parsed.options.media = false;
    }
  }
  const emulator = await createEmulator({ ...parsed.options, logger }).catch((e: unknown) => {
    process.stderr.write(`liveai-emulator: cannot start: ${isLiveAiError(e) ? e.detail : (e as Error).message}\n`);
    process.exit(isLiveAiError(e, 'invalid_request') ? 2 : 1);
  });
  if (parsed.options.seed === undefined) {
    process.stdout.write('built-in seed (no --seed given):\n');
    for (const a of emulator.state.seed.accounts) {
      process.stdout.write(`  api key ${a.api_key}  credits ${a.credits}  agents ${a.agents.map((g) => g.agent_id).join(', ')}\n`);
    }
  }
  process.stdout.write(`media ${parsed.options.media ? 'on' : 'off'}\n`);
  process.stdout.write(`listening on ${emulator.url}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main(process.argv.slice(2));
