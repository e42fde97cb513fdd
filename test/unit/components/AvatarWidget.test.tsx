import './cleanup';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AvatarWidget } from '../../../src/components';
import type { Phase } from '../../../src/core/session/types';
import { createFakeProxy, createTestSession, FakeTransport, fakeTransportLoader } from '../../../src/testing';

describe('AvatarWidget', () => {
  it('start → live avatar with chat → end, reporting phases, transcript, image changes and the cost', async () => {
    const session = createTestSession();
    const phases: Phase[] = [];
    const onTranscript = vi.fn();
    const onImageChange = vi.fn();
    const onEnd = vi.fn();
    render(
      <AvatarWidget
        session={session}
        title="Ada"
        onPhaseChange={(p) => phases.push(p)}
        onTranscript={onTranscript}
        onImageChange={onImageChange}
        onEnd={onEnd}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: /Talk to Ada/ }));
    const panel = screen.getByRole('region', { name: 'Ada' });
    expect(within(panel).getByRole('textbox')).toBeDisabled();
    await userEvent.click(within(panel).getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(session.store.getState().phase).toBe('queued'));
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    await waitFor(() => expect(within(panel).getByRole('textbox')).toBeEnabled());
    expect(within(panel).getByText('Live')).toBeInTheDocument();
    act(() => session.transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello there' }));
    expect(await within(panel).findByText('Hello there')).toBeInTheDocument();
    expect(onTranscript).toHaveBeenCalledWith(expect.objectContaining({ role: 'agent', text: 'Hello there' }));
    act(() => session.transport.emitEvent({ type: 'image_change_requested' }));
    expect(onImageChange).toHaveBeenCalledWith({ status: 'requested' });
    await userEvent.click(within(panel).getByRole('button', { name: 'End' }));
    await waitFor(() => expect(onEnd).toHaveBeenCalledWith({ reason: 'user', cost: 1.25, sessionId: expect.any(String) }));
    expect(phases).toEqual(['creating', 'queued', 'active', 'ending', 'ended']);
    expect(within(panel).getByText(/1.25 credits/)).toBeInTheDocument();
  });

  it('ends a call that stays minimized, showing when on the launcher', async () => {
    vi.useFakeTimers();
    try {
      const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
      render(<AvatarWidget session={session} initialState="active" minimizedEndMs={1500} />);
      // Said before it happens: the label (and tooltip) of Minimize during a call.
      const minimize = screen.getByRole('button', { name: 'Minimize (the call ends if it stays minimized for 2 s)' });
      expect(minimize).toHaveAttribute('title', 'Minimize (the call ends if it stays minimized for 2 s)');
      act(() => minimize.click());
      expect(screen.getByRole('button', { name: 'Call ends in 0:02 · Open' })).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(screen.getByRole('button', { name: 'Call ends in 0:01 · Open' })).toBeInTheDocument();
      expect(session.store.getState().phase).toBe('active');
      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(session.store.getState().phase).toBe('ended');
      expect(session.store.getState().endReason).toBe('user');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reopening in time keeps the call', async () => {
    const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
    render(<AvatarWidget session={session} initialState="minimized" minimizedEndMs={60_000} />);
    await userEvent.click(screen.getByRole('button', { name: /Call ends in/ }));
    expect(screen.getByRole('button', { name: /^Minimize/ })).toBeInTheDocument();
    expect(session.store.getState().phase).toBe('active');
  });

  it('minimizeKeepsCall: minimizing keeps the call, and Minimize says nothing about ending it', async () => {
    vi.useFakeTimers();
    try {
      const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
      render(<AvatarWidget session={session} initialState="active" minimizedEndMs={1000} minimizeKeepsCall title="Ada" />);
      act(() => screen.getByRole('button', { name: 'Minimize' }).click());
      expect(screen.getByRole('button', { name: 'In call with Ada · Open' })).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(session.store.getState().phase).toBe('active');
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts down the last 30 s of maxDurationMs and ends the call', async () => {
    vi.useFakeTimers();
    try {
      const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
      render(<AvatarWidget session={session} variant="inline" maxDurationMs={2500} />);
      expect(screen.getByRole('timer')).toHaveTextContent('Call ends in 0:03');
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(screen.getByRole('timer')).toHaveTextContent('Call ends in 0:02');
      expect(session.store.getState().phase).toBe('active');
      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(session.store.getState().phase).toBe('ended');
    } finally {
      vi.useRealTimers();
    }
  });

  it('inline variant shows the conversation beside the video; hidden renders nothing', () => {
    const session = createTestSession();
    const { rerender, container } = render(<AvatarWidget session={session} variant="inline" theme="dark" />);
    expect(screen.getByRole('log')).toBeInTheDocument();
    expect(container.firstChild).toHaveAttribute('data-theme', 'dark');
    rerender(<AvatarWidget session={session} variant="inline" state="hidden" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('two widgets on one page are independent', async () => {
    const proxy = createFakeProxy();
    const options = (t: FakeTransport) => ({
      fetch: proxy.fetch,
      loadTransport: fakeTransportLoader(t),
      pollIntervalMs: 20,
      endOnUnload: false,
    });
    const a = new FakeTransport();
    const b = new FakeTransport();
    render(
      <>
        <AvatarWidget proxyUrl="http://proxy.fake.test" agentId="agent-a" title="A" variant="inline" options={options(a)} />
        <AvatarWidget proxyUrl="http://proxy.fake.test" agentId="agent-b" title="B" variant="inline" options={options(b)} />
      </>,
    );
    await userEvent.click(within(screen.getByRole('region', { name: 'A' })).getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(a.connectCalls).toHaveLength(1));
    expect(b.connectCalls).toHaveLength(0);
    expect(within(screen.getByRole('region', { name: 'B' })).getByRole('button', { name: 'Start call' })).toBeInTheDocument();
    expect(proxy.callsTo('POST /rooms').map((c) => c.body)).toEqual([{ agent_id: 'agent-a' }]);
  });

  it('renders nothing without proxyUrl and agentId, and says what is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<AvatarWidget proxyUrl="/api/avatar" />);
    expect(container).toBeEmptyDOMElement();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^<AvatarWidget\/> renders nothing: give it agentId/));
    warn.mockRestore();
  });
});
