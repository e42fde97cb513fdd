import type { AvatarSession, AvatarSessionOptions, SessionState } from '../core/index';
import { createSeededSession, type SessionStatePatch } from '../core/internal';
import { createFakeProxy, type FakeProxy } from './fake-proxy';
import { FakeTransport, fakeTransportLoader } from './fake-transport';

/**
 * Options of `createTestSession`: any session option, plus a seeded state and your own fakes.
 * @public
 */
export type TestSessionOptions = Partial<AvatarSessionOptions> & {
  initialState?: Partial<SessionState>;
  proxy?: FakeProxy;
  transport?: FakeTransport;
};
/**
 * A real session wired to fakes, with the fakes at hand.
 * @public
 */
export type TestSession = AvatarSession & { proxy: FakeProxy; transport: FakeTransport };

const SEEDED_RUNNING = ['queued', 'connecting', 'active'];

/**
 * A real session over `createFakeProxy()` and a `FakeTransport` (flow: room `agent-demo`, polling every 20 ms).
 * With `initialState` the store starts there (stories, component tests); a seeded `queued`/`connecting`/`active`
 * phase also gets a session in the fake proxy and, when active, a connected transport, so controls, chat and
 * `end()` work against the fakes.
 * @public
 */
export function createTestSession(options: TestSessionOptions = {}): TestSession {
  const { initialState, proxy = createFakeProxy(), transport = new FakeTransport(), ...rest } = options;
  const seeded = initialState?.phase !== undefined && SEEDED_RUNNING.includes(initialState.phase);
  const client = seeded
    ? proxy.seedSession({ status: initialState?.sessionStatus ?? (initialState?.phase === 'queued' ? 'QUEUED' : 'ACTIVE') })
    : undefined;
  if (seeded && initialState?.phase !== 'queued') transport.setConnection('connected');
  const session = createSeededSession(
    {
      proxyUrl: 'http://proxy.fake.test',
      flow: { kind: 'room', agentId: 'agent-demo' },
      fetch: proxy.fetch,
      loadTransport: fakeTransportLoader(transport),
      pollIntervalMs: 20,
      maxPollIntervalMs: 50,
      endTimeoutMs: 2000,
      endOnUnload: false,
      ...rest,
    },
    {
      initialState: client
        ? ({
            sessionId: client.session_id,
            transport: client.transport ?? null,
            ...initialState,
            media: { connection: transport.connection, ...initialState?.media } as SessionState['media'],
          } as SessionStatePatch)
        : initialState,
      clientSession: client,
      transport: client ? transport : undefined,
    },
  );
  return Object.assign(session, { proxy, transport });
}
