import './cleanup';
import { Profiler, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarStage, AvatarWidget, ControlBar } from '../../../src/components';
import { AvatarSessionProvider, useSession } from '../../../src/react';
import { createTestSession } from '../../../src/testing';

afterEach(() => vi.restoreAllMocks());

const counter = () => {
  const renders: Record<string, number> = {};
  const Count = ({ id, children }: { id: string; children: ReactNode }) => (
    <Profiler id={id} onRender={() => void (renders[id] = (renders[id] ?? 0) + 1)}>
      {children}
    </Profiler>
  );
  return { renders, Count };
};

describe('re-renders follow what a component shows', () => {
  it('moving the volume slider re-renders the control bar, not the video stage', () => {
    const session = createTestSession({ initialState: { phase: 'active' } });
    const { renders, Count } = counter();
    render(
      <AvatarSessionProvider session={session}>
        <Count id="stage">
          <AvatarStage />
        </Count>
        <Count id="controls">
          <ControlBar />
        </Count>
      </AvatarSessionProvider>,
    );
    const before = { ...renders };
    for (const v of [0.9, 0.8, 0.7, 0.6, 0.5]) act(() => session.setVolume(v));
    expect(screen.getByRole('slider', { name: /volume/i })).toHaveValue('0.5');
    const stage = (renders.stage ?? 0) - (before.stage ?? 0);
    const controls = (renders.controls ?? 0) - (before.controls ?? 0);
    expect(stage).toBe(0);
    expect(controls).toBe(5);
  });
});

describe('useSession().start surfaces its error', () => {
  it('rejects with the typed error that is also in the store', async () => {
    const session = createTestSession();
    session.proxy.failNext('POST /rooms', 402, 'Insufficient funds');
    let seen: unknown;
    const Start = () => {
      const { start } = useSession();
      return <button onClick={() => void start().catch((e: unknown) => (seen = e))}>go</button>;
    };
    render(
      <AvatarSessionProvider session={session}>
        <Start />
      </AvatarSessionProvider>,
    );
    await act(async () => screen.getByRole('button', { name: 'go' }).click());
    await vi.waitFor(() => expect(seen).toMatchObject({ code: 'insufficient_funds' }));
    expect(session.store.getState().error?.code).toBe('insufficient_funds');
  });
});

describe('<AvatarWidget/> without proxyUrl or agentId', () => {
  it('renders nothing and warns once in development, naming what is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<AvatarWidget proxyUrl="/api/avatar" />);
    render(<AvatarWidget />);
    expect(container).toBeEmptyDOMElement();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/renders nothing: give it agentId/);
  });
});
