import { expect } from 'vitest';
import type { EmulatorOptions } from '../../../src/emulator/index';
import type { Harness } from '../helpers';

/** What a conformance case gets: the shared emulator, and `fresh()` for one with its own options / state. */
export interface CaseContext {
  h: Harness;
  fresh(options?: EmulatorOptions): Promise<Harness>;
}
/** One spec rule, named after its section. */
export interface Case {
  name: string;
  run(t: CaseContext): Promise<void>;
}

/** Asserts an error answer: `status` and a JSON `{detail}` string, optionally matching `detail`. */
export function expectError(
  res: { status: number; body: unknown; headers: Record<string, string> },
  status: number,
  detail?: RegExp | string,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  const body = res.body as { detail?: unknown };
  expect(typeof body.detail).toBe('string');
  if (detail instanceof RegExp) expect(body.detail).toMatch(detail);
  else if (detail !== undefined) expect(body.detail).toBe(detail);
}
