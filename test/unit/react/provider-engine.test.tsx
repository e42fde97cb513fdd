// The provider loads the session's engine once it has mounted, before any click: the Start button paints without it,
// and a click then does not wait for its download.
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarSessionProvider } from '../../../src/react';
import { createFakeProxy } from '../../../src/testing';
import { until } from '../core/helpers';

const ENGINE = '../../../src/core/session/session';

afterEach(() => {
  vi.doUnmock(ENGINE);
  vi.resetModules();
});

describe('AvatarSessionProvider and the session engine', () => {
  it('requests the engine once mounted, with nothing started', async () => {
    let requested = 0;
    vi.doMock(ENGINE, async (importOriginal) => {
      requested++;
      return importOriginal();
    });
    const proxy = createFakeProxy();
    const options = { proxyUrl: 'http://proxy.test/api/avatar', flow: { kind: 'room' as const, agentId: 'agent-1' }, fetch: proxy.fetch };
    const view = render(
      <AvatarSessionProvider options={options}>
        <button>Start call</button>
      </AvatarSessionProvider>,
    );
    expect(view.getByText('Start call')).toBeTruthy(); // painted without the engine
    await until(() => requested === 1, 'the engine requested');
    expect(proxy.callsTo('POST /rooms')).toHaveLength(0);
    view.unmount();
  });
});
