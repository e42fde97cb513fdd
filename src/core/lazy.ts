/**
 * Loaders of the chunks the engine needs only once a session starts (nothing heavy before
 * the first click). Each `import()` runs once; a failed load is retried on the next call.
 */
type Validation = typeof import('./validation');

let validation: Promise<Validation> | undefined;

/** The zod schemas and validators (`liveai-kit/schemas`), loaded on first use. */
export function loadValidation(): Promise<Validation> {
  validation ??= import('./validation').catch((e: unknown) => {
    validation = undefined;
    throw e;
  });
  return validation;
}
