import * as v from 'valibot';

// Building blocks of the schemas, not exported by `liveai-kit/schemas`.

/** The scheme of a URL (`https`), or undefined when it is no URL. */
const schemeOf = (s: string): string | undefined => {
  try {
    return new URL(s).protocol.slice(0, -1);
  } catch {
    return undefined;
  }
};
/**
 * A URL the URL parser accepts, optionally limited to some schemes (`protocols`, without the colon).
 * @internal
 */
export const urlSchema = (protocols?: readonly string[], message?: string) =>
  protocols
    ? v.pipe(
        v.string(),
        v.url(message ?? 'must be a URL'),
        // `protocols` rides on the check so the OpenAPI generator can state it as a pattern. A string that is no URL
        // at all already has its issue from `url` (valibot runs every check of a pipe).
        Object.assign(
          v.check((s: string) => protocols.includes(schemeOf(s) ?? protocols[0]!), message ?? `must be a ${protocols.join(' or ')} URL`),
          { protocols },
        ),
      )
    : v.pipe(v.string(), v.url(message ?? 'must be a URL'));

/**
 * A valibot check that reports each `{path, message}` problem of a cross-field rule as an issue at its path.
 * @internal
 */
export function withProblems<T>(problems: (value: T) => { path: string; message: string }[]) {
  return ({ dataset, addIssue }: v.RawCheckContext<T>) => {
    if (!dataset.typed) return;
    for (const p of problems(dataset.value)) {
      const path = p.path.split('.').map((key) => ({ type: 'object', origin: 'value', input: {}, key, value: undefined }) as const);
      addIssue({ message: p.message, path: path as unknown as [v.ObjectPathItem] });
    }
  };
}
