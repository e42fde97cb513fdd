/**
 * The logger the emulator writes to: the subset of a pino logger it uses (a pino logger fits as it is). Each method
 * takes a message, or an object of fields and then a message. Secrets (API keys, tokens) are never passed to it.
 * @public
 */
export interface EmulatorLogger {
  /** Detail for debugging (e.g. an invalid app message that was ignored). */
  debug(obj: object | string, msg?: string): void;
  /** Lifecycle: the server listening, a session ended (with its status and reason). */
  info(obj: object | string, msg?: string): void;
  /** A problem the emulator works around (a refused image download, an avatar that could not join). */
  warn(obj: object | string, msg?: string): void;
  /** A failure. */
  error(obj: object | string, msg?: string): void;
}

const noop = () => undefined;
/** Default logger: silent. */
export const silentLogger: EmulatorLogger = { debug: noop, info: noop, warn: noop, error: noop };
