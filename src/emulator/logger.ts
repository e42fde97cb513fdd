/** The subset of a pino logger the emulator uses. Secrets (API keys, tokens) are never passed to it. */
export interface EmulatorLogger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

const noop = () => undefined;
/** Default logger: silent. */
export const silentLogger: EmulatorLogger = { debug: noop, info: noop, warn: noop, error: noop };
