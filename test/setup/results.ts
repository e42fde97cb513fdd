import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The run's own folder (git-ignored): screenshots, figures, tools' full reports. */
export const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../test-results');

/**
 * What a person reads after a run (figures, measurements, a tool's full report) goes to a file under
 * test-results/, never to stdout: `npm test` prints the reporter's lines only. `name` is the path inside
 * test-results/; a string is written as it is, anything else as indented JSON. Returns the file's path.
 */
export function writeResult(name: string, data: unknown): string {
  const path = join(RESULTS, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof data === 'string' ? data : `${JSON.stringify(data, null, 2)}\n`);
  return path;
}
