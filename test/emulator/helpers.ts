import request, { type Response, type Test } from 'supertest';
import { createEmulator, type Emulator, type EmulatorOptions, type LoggedEvent } from '../../src/emulator/index';

export const ALICE = 'dev-key-alice';
export const BOB = 'dev-key-bob';
export const BROKE = 'dev-key-broke';
export const LK_URL = 'ws://127.0.0.1:7880';

/** A response seen by a test, for the OpenAPI cross-check. */
export interface Seen {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: unknown;
}

/** Polls `fn` every 10 ms until it returns a truthy value; fails after `timeoutMs` with `what`. */
export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Bodies of session creation per transport (with the properties each requires), for an agent or extra fields. */
export const bodies = {
  rtcA: (extra: object = {}) => ({
    agent_id: 'agent-demo',
    transport_type: 'rtc-a',
    properties: { rtc_a_url: LK_URL, rtc_a_token: 'avatar-token' },
    ...extra,
  }),
  rtcB: (extra: object = {}) => ({
    agent_id: 'agent-demo',
    transport_type: 'rtc-b',
    properties: { rtc_b_url: 'https://rooms.example.test/r1', rtc_b_token: 't' },
    ...extra,
  }),
  wsA: (extra: object = {}) => ({
    agent_id: 'agent-demo',
    transport_type: 'websocket-rtc-a',
    rtc_a_properties: { rtc_a_url: LK_URL, rtc_a_token: 't' },
    ...extra,
  }),
  wsB: (extra: object = {}) => ({
    agent_id: 'agent-demo',
    transport_type: 'websocket-rtc-b',
    rtc_b_properties: { rtc_b_url: 'https://rooms.example.test/r2', rtc_b_token: 't' },
    ...extra,
  }),
};

/** An emulator plus supertest helpers that record every answer they get. */
export class Harness {
  readonly seen: Seen[] = [];
  private constructor(readonly emu: Emulator) {}

  static async start(options: EmulatorOptions = {}, seen?: Seen[]): Promise<Harness> {
    const h = new Harness(
      await createEmulator({ port: 0, media: false, queueMs: 20, imageChangeMs: 20, imageHosts: 'loopback', ...options }),
    );
    if (seen) (h as { seen: Seen[] }).seen = seen;
    return h;
  }

  get url(): string {
    return this.emu.url;
  }

  /** Records the answer of `test` when it is awaited. */
  private track(test: Test): Test {
    const then = test.then.bind(test);
    test.then = ((ok?: (r: Response) => unknown, bad?: (e: unknown) => unknown) =>
      then((res: Response) => {
        const req = (res as unknown as { req: { method: string; path: string } }).req;
        this.seen.push({
          method: req.method,
          path: req.path,
          status: res.status,
          contentType: String(res.headers['content-type'] ?? ''),
          body: res.body,
        });
        return ok ? ok(res) : res;
      }, bad)) as Test['then'];
    return test;
  }

  get(path: string, key?: string): Test {
    const t = request(this.url).get(path);
    if (key !== undefined) t.set('X-API-Key', key);
    return this.track(t);
  }
  post(path: string, body?: unknown, key?: string): Test {
    const t = request(this.url).post(path);
    if (key !== undefined) t.set('X-API-Key', key);
    if (body !== undefined) t.send(body as object);
    return this.track(t);
  }
  /** A raw supertest request (custom method, headers, multipart), still recorded. */
  raw(method: 'get' | 'post' | 'put' | 'delete' | 'patch', path: string): Test {
    return this.track(request(this.url)[method](path));
  }

  /** Creates a session (201 expected) and returns its id. */
  async session(body: object = bodies.rtcA(), key = ALICE): Promise<string> {
    const res = await this.post('/liveai/sessions', body, key);
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.session_id as string;
  }
  /** Creates a session and waits until it is ACTIVE. */
  async activeSession(body: object = bodies.rtcA(), key = ALICE): Promise<string> {
    const id = await this.session(body, key);
    await this.status(id, 'ACTIVE');
    return id;
  }
  /** Waits until the session has `status` (polling the internal view). */
  status(id: string, status: string, timeoutMs = 5000) {
    return waitFor(() => this.emu.state.session(id)?.session_status === status, `session ${id} to be ${status}`, timeoutMs);
  }
  events(id: string): LoggedEvent['event'][] {
    return this.emu.state.events(id).map((e) => e.event);
  }
  types(id: string): string[] {
    return this.events(id).map((e) => e.type);
  }
  /** Waits until an event of `type` was emitted for the session and returns it. */
  event(id: string, type: string, timeoutMs = 5000) {
    return waitFor(() => this.emu.state.events(id).find((e) => e.event.type === type), `event ${type} on ${id}`, timeoutMs);
  }
  control(id: string, body: unknown, key?: string): Test {
    return this.post(`/liveai/sessions/${id}/control`, body, key);
  }
  close(): Promise<void> {
    return this.emu.close();
  }
}

/** Decodes the payload of a JWT (no verification). */
export const jwtPayload = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
