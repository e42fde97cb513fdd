import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, type EmulatorOptions } from '../../src/emulator/index';
import { authCases } from './cases/auth';
import { controlCases } from './cases/control';
import { createSessionCases } from './cases/create-session';
import { errorCases } from './cases/errors';
import { eventCases } from './cases/events';
import { leaveMeetingCases } from './cases/leave-meeting';
import { multipartCases } from './cases/multipart';
import { paginationCases } from './cases/pagination';
import { roomCases } from './cases/rooms';
import { seedCases } from './cases/seed';
import { stateCases } from './cases/states';
import type { Case, CaseContext } from './cases/types';
import { websocketCases } from './cases/websocket';
import { Harness, type Seen } from './helpers';
import { responseProblems } from './openapi-match';

/** One case per spec rule, named after its section (the spec: avatar-session-service.md). */
const CASES: Case[] = [
  ...authCases,
  ...paginationCases,
  ...roomCases,
  ...createSessionCases,
  ...multipartCases,
  ...stateCases,
  ...controlCases,
  ...leaveMeetingCases,
  ...eventCases,
  ...websocketCases,
  ...errorCases,
  ...seedCases,
];

describe(`emulator conformance (${CASES.length} cases)`, () => {
  const seen: Seen[] = [];
  const extra: Harness[] = [];
  let ctx: CaseContext;

  beforeAll(async () => {
    const h = await Harness.start({}, seen);
    ctx = {
      h,
      fresh: async (options: EmulatorOptions = {}) => {
        const f = await Harness.start(options, seen);
        extra.push(f);
        return f;
      },
    };
  });
  afterAll(async () => {
    await Promise.all([ctx.h, ...extra].map((h) => h.close()));
  });

  it('has at least 80 cases with unique names', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(80);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) it(c.name, () => c.run(ctx));

  it('OpenAPI: every /liveai answer of this suite matches the OpenAPI document (status, content type, schema)', () => {
    const doc = buildOpenApi(ctx.h.url);
    const checked = seen.filter((s) => s.path.startsWith('/liveai/'));
    expect(checked.length).toBeGreaterThan(150);
    const problems = checked.flatMap((s) => responseProblems(doc, s));
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
