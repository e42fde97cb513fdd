import './cleanup';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarWidget } from '../../../src/components';
import type { Phase } from '../../../src/core/session/types';
import { createFakeProxy, createTestSession, FakeTransport, fakeTransportLoader } from '../../../src/testing';

/** A browser's microphone: `getUserMedia` answers with a stream of one track, or refuses with `refuse` (a DOMException name). */
function stubMicrophone(refuse?: string) {
  const stop = vi.fn();
  const getUserMedia = vi.fn(async () => {
    if (refuse) throw Object.assign(new Error(refuse), { name: refuse });
    return { getTracks: () => [{ stop }] } as unknown as MediaStream;
  });
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  return { getUserMedia, stop };
}

describe('AvatarWidget', () => {
  afterEach(() => {
    delete (navigator as { mediaDevices?: unknown }).mediaDevices;
  });

  it('start → live avatar with chat → end, reporting phases, transcript, image changes and the end', async () => {
    stubMicrophone();
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
    // Before a call: no chat field, no controls; one action.
    expect(within(panel).queryByRole('textbox')).toBeNull();
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toEqual(['Minimize', 'Start call']);
    await userEvent.click(within(panel).getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(session.store.getState().phase).toBe('queued'));
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    // Live with the microphone on; the chat one tap away.
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Microphone' })).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Chat' }));
    expect(await within(panel).findByRole('textbox')).toBeEnabled();
    // The caption shows the agent's line as the avatar speaks it.
    act(() => session.transport.emitRoom('speaking', { who: 'avatar', speaking: true }));
    act(() => session.transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello there' }));
    expect(await within(panel).findByText('Hello there')).toBeInTheDocument();
    expect(onTranscript).toHaveBeenCalledWith(expect.objectContaining({ role: 'agent', text: 'Hello there' }));
    act(() => session.transport.emitEvent({ type: 'image_change_requested' }));
    expect(onImageChange).toHaveBeenCalledWith({ status: 'requested' });
    await userEvent.click(within(panel).getByRole('button', { name: 'End' }));
    await waitFor(() => expect(onEnd).toHaveBeenCalledWith({ reason: 'user', cost: 1.25, sessionId: expect.any(String), error: null }));
    expect(phases).toEqual(['creating', 'queued', 'active', 'ending', 'ended']);
    // The captions went with the call; visitors see no cost.
    expect(within(panel).queryByText('Hello there')).toBeNull();
    expect(within(panel).getByRole('status')).toHaveTextContent('Call ended');
    expect(panel.textContent).not.toMatch(/credit/);
  });

  it('endings that fail reach onEnd too, with their reason and error, and the visitor reads why (issue 40.3)', async () => {
    stubMicrophone();
    // The technical detail of each failure goes to the console (the visitor reads a sentence): asserted below.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const session = createTestSession();
    const onEnd = vi.fn();
    render(<AvatarWidget session={session} initialState="active" onEnd={onEnd} />);
    // Out of credits: the service refused the call (402).
    session.proxy.failNext('POST /rooms', 402, 'The avatar service cannot start a session: insufficient funds');
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    await waitFor(() =>
      expect(onEnd).toHaveBeenCalledWith({
        reason: 'out_of_credits',
        cost: null,
        sessionId: null,
        error: expect.objectContaining({ code: 'insufficient_funds' }),
      }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('This avatar is out of call time for now.');
    // A live call the service ends FAILED: "stopped unexpectedly", not "could not start".
    await act(async () => {
      void session.start().catch(() => undefined);
    });
    await waitFor(() => expect(session.store.getState().phase).toBe('queued'));
    const id = session.store.getState().sessionId!;
    session.proxy.setStatus(id, 'ACTIVE');
    act(() => session.transport.emitEvent({ type: 'bot_ready' }));
    await waitFor(() => expect(session.store.getState().phase).toBe('active'));
    session.proxy.setStatus(id, 'FAILED');
    await waitFor(() =>
      expect(onEnd).toHaveBeenLastCalledWith(
        expect.objectContaining({ reason: 'failed', sessionId: id, error: expect.objectContaining({ code: 'upstream_error' }) }),
      ),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The avatar stopped unexpectedly.');
    expect(onEnd).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([
      'liveai-kit: insufficient_funds: The avatar service cannot start a session: insufficient funds',
      'liveai-kit: upstream_error: the avatar service says the session FAILED',
    ]);
    warn.mockRestore();
  });

  it('while the avatar is coming in a hosted room, the visitor reads when to talk (issue 40.1)', async () => {
    stubMicrophone();
    const session = createTestSession();
    expect(session.preConnectAudio).toBe(false);
    render(<AvatarWidget session={session} initialState="active" />);
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    expect(await screen.findByText('You can talk once the avatar is live.')).toBeInTheDocument();
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    await waitFor(() => expect(session.store.getState().phase).toBe('active'));
    expect(screen.queryByText('You can talk once the avatar is live.')).toBeNull();
  });

  it('in a LiveKit agent’s room the widget listens from the Start click; preConnectAudio: false waits (issue 40.1)', async () => {
    for (const preConnectAudio of [undefined, false]) {
      stubMicrophone();
      const proxy = createFakeProxy();
      const attached = proxy.seedSession({ status: 'QUEUED' });
      const session = createTestSession({
        proxy,
        flow: { kind: 'attach', session: attached },
        ...(preConnectAudio === false ? { preConnectAudio } : {}),
      });
      expect(session.preConnectAudio).toBe(preConnectAudio !== false);
      const { unmount } = render(<AvatarWidget session={session} initialState="active" />);
      await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
      if (preConnectAudio === false) {
        expect(await screen.findByText('You can talk once the avatar is live.')).toBeInTheDocument();
        expect(session.store.getState().media.micEnabled).toBe(false);
      } else {
        expect(await screen.findByText('Listening: you can start talking while the avatar joins.')).toBeInTheDocument();
        expect(session.store.getState().media.micEnabled).toBe(true); // on before the room is joined
      }
      unmount();
      session.dispose();
    }
  });

  it('opens the microphone with the call: asked inside the Start click, on once the call is live', async () => {
    const mic = stubMicrophone();
    const session = createTestSession();
    render(<AvatarWidget session={session} initialState="active" />);
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    // The permission prompt follows the click itself, not the end of a wait.
    expect(mic.getUserMedia).toHaveBeenCalledWith({ audio: true });
    await waitFor(() => expect(mic.stop).toHaveBeenCalled());
    expect(session.transport.micEnabled).toBe(false);
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    await waitFor(() => expect(session.transport.micEnabled).toBe(true));
    expect(screen.getByRole('button', { name: 'Microphone' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('a refused microphone leaves a working text chat and says so', async () => {
    stubMicrophone('NotAllowedError');
    const session = createTestSession();
    render(<AvatarWidget session={session} initialState="active" />);
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(session.store.getState().phase).toBe('queued'));
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    await waitFor(() => expect(session.store.getState().phase).toBe('active'));
    expect(await screen.findByText('Microphone blocked. Type to talk, or allow it in your browser.')).toBeInTheDocument();
    expect(session.transport.micEnabled).toBe(false);
    await userEvent.type(screen.getByRole('textbox'), 'Hi{Enter}');
    await waitFor(() => expect(session.transport.sentMessages).toContainEqual(expect.objectContaining({ event: 'chat-msg' })));
  });

  it('microphone={false}: a text-only widget asks for no microphone and shows the chat', async () => {
    const mic = stubMicrophone();
    const session = createTestSession();
    render(<AvatarWidget session={session} initialState="active" microphone={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    session.proxy.setStatus((await waitFor(() => session.store.getState().sessionId!))!, 'ACTIVE');
    await waitFor(() => expect(screen.getByRole('textbox')).toBeEnabled());
    expect(mic.getUserMedia).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Microphone' })).toBeNull();
    expect(screen.queryByText(/Microphone blocked|No microphone/)).toBeNull();
  });

  it('while the avatar starts, one action: Cancel, which ends the call', async () => {
    stubMicrophone();
    const session = createTestSession();
    render(<AvatarWidget session={session} initialState="active" />);
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    await waitFor(() => expect(session.store.getState().phase).toBe('queued'));
    const controls = screen.getByRole('group', { name: 'Call controls' });
    expect(
      within(controls)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Cancel']);
    await userEvent.click(within(controls).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(session.store.getState().phase).toBe('ended'));
  });

  it('minimizing keeps the call by default: no countdown, the launcher says the call goes on', async () => {
    const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
    render(<AvatarWidget session={session} initialState="active" title="Ada" />);
    // Minimize says nothing about ending the call, and the launcher counts nothing down.
    await userEvent.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(screen.getByRole('button', { name: 'In call with Ada · Open' })).toHaveAttribute('data-in-call');
    expect(screen.getByRole('button', { name: 'In call with Ada · Open' })).not.toHaveAttribute('data-ending');
    expect(session.store.getState().phase).toBe('active');
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

  it('inline variant shows the conversation beside the video once a call started; hidden renders nothing', () => {
    const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
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
