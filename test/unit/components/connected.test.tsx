import './cleanup';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AvatarStage, ChatInput, ControlBar, ImageSwapper, QueueProgress, SessionList, TranscriptPanel } from '../../../src/components';
import { AvatarSessionProvider } from '../../../src/react';
import { createFakeProxy, createTestSession, type TestSession } from '../../../src/testing';

const withSession = (session: TestSession, ui: React.ReactNode) =>
  render(<AvatarSessionProvider session={session}>{ui}</AvatarSessionProvider>);
type State = ReturnType<TestSession['store']['getState']>;
/** Resolves once the session's store satisfies `check` (at once if it does): waits on the store's change, not a clock. */
const reach = (s: TestSession, check: (st: State) => boolean) =>
  act(
    () =>
      new Promise<void>((resolve) => {
        if (check(s.store.getState())) return resolve();
        const off = s.store.subscribe((st) => {
          if (!check(st)) return;
          off();
          resolve();
        });
      }),
  );
/** The promise the last call of a spied method returned, to await its real outcome. */
const lastResult = (spy: { mock: { results: { value: unknown }[] } }) =>
  act(() => Promise.resolve(spy.mock.results.at(-1)!.value).catch(() => undefined));

describe('connected components', () => {
  it('AvatarStage + QueueProgress: start → queued with progress → active → end shows the cost', async () => {
    const session = createTestSession();
    withSession(
      session,
      <>
        <AvatarStage showCost />
        <QueueProgress />
        <ControlBar />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
    await reach(session, (st) => st.phase === 'queued');
    expect(screen.getAllByRole('progressbar')).toHaveLength(2);
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    await reach(session, (st) => st.phase === 'active');
    expect(screen.getByRole('region', { name: 'Avatar' })).toHaveAttribute('data-phase', 'active');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'End' }));
    await reach(session, (st) => st.phase === 'ended' && st.cost !== null);
    expect(screen.getByRole('status')).toHaveTextContent('This call used 1.25 credits.');
  });

  it('AvatarStage shows "Turn on sound" from the store and calls unblockAudio', async () => {
    const session = createTestSession({ initialState: { phase: 'active', media: { audioBlocked: true } as never } });
    let unblocked = 0;
    session.unblockAudio = async () => void unblocked++;
    withSession(session, <AvatarStage />);
    await userEvent.click(screen.getByRole('button', { name: 'Turn on sound' }));
    expect(unblocked).toBe(1);
  });

  it('ChatInput is disabled until active, then sends chat-msg over the transport', async () => {
    const idle = createTestSession();
    const { unmount } = withSession(idle, <ChatInput />);
    expect(screen.getByRole('textbox')).toBeDisabled();
    unmount();
    const session = createTestSession({ initialState: { phase: 'active' } });
    const send = vi.spyOn(session, 'sendChat');
    withSession(session, <ChatInput />);
    await userEvent.type(screen.getByRole('textbox'), 'Hello avatar{Enter}');
    await lastResult(send);
    expect(session.transport.sentMessages).toContainEqual(expect.objectContaining({ event: 'chat-msg', message: 'Hello avatar' }));
  });

  it('TranscriptPanel shows transcription events as they arrive', async () => {
    const session = createTestSession({ initialState: { phase: 'active' } });
    withSession(session, <TranscriptPanel />);
    act(() => session.transport.emitEvent({ type: 'agent_transcription', transcription: 'Nice to meet you' }));
    expect(await screen.findByText('Nice to meet you')).toBeInTheDocument();
  });

  it('ControlBar: mic state is the truth from the store', async () => {
    const session = createTestSession({ initialState: { phase: 'active' } });
    withSession(session, <ControlBar />);
    const mic = screen.getByRole('button', { name: 'Microphone' });
    expect(mic).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(mic);
    await reach(session, (st) => st.media.micEnabled && !st.media.micPending);
    expect(mic).toHaveAttribute('aria-pressed', 'true');
    expect(session.transport.micEnabled).toBe(true);
  });

  it('ControlBar: the mic toggle is busy (aria-disabled, keeps focus) while the session says micPending', async () => {
    const session = createTestSession({ initialState: { phase: 'active' } });
    withSession(session, <ControlBar />);
    const mic = screen.getByRole('button', { name: 'Microphone' });
    expect(mic).not.toHaveAttribute('aria-busy');
    let switching!: Promise<void>;
    act(() => void (switching = session.setMicEnabled(true)));
    expect(session.store.getState().media.micPending).toBe(true);
    expect(mic).toHaveAttribute('aria-busy', 'true');
    expect(mic).toHaveAttribute('aria-disabled', 'true');
    // Not disabled: a keyboard user's focus stays on it; a click while pending does nothing.
    expect(mic).toBeEnabled();
    mic.focus();
    fireEvent.click(mic);
    expect(mic).toHaveFocus();
    await act(() => switching);
    expect(session.store.getState().media.micPending).toBe(false);
    expect(mic).not.toHaveAttribute('aria-busy');
    expect(mic).toBeEnabled();
    expect(mic).toHaveAttribute('aria-pressed', 'true');
  });

  it("ControlBar: the keep-alive toggle drives the session's one keep-alive (sent on user activity, stopped when off)", async () => {
    // keepAliveMs: at most one reset-idle-timeout per ms of activity; the toggle starts off.
    const session = createTestSession({ initialState: { keepAlive: false }, keepAliveMs: 1 });
    withSession(session, <ControlBar />);
    // An async act(): a synchronous one leaves React's act scope open after Testing Library restored the act
    // environment, and React warns about the store writes of the start that land in between.
    await act(async () => void session.start().catch(() => undefined));
    await reach(session, (st) => st.phase === 'queued');
    session.proxy.setStatus(session.store.getState().sessionId!, 'ACTIVE');
    await reach(session, (st) => st.phase === 'active');
    const toggle = screen.getByRole('button', { name: 'Stay connected' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    const controls = () =>
      session.proxy.sessions.get(session.store.getState().sessionId!)!.controls.filter((c) => c.event === 'reset-idle-timeout');
    fireEvent.pointerDown(window);
    expect(controls()).toHaveLength(0); // off: activity sends nothing
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(session.store.getState().keepAlive).toBe(true);
    // Core's rule: activity on the page sends reset-idle-timeout (at most every keepAliveMs).
    await waitFor(() => {
      // A plain DOM event (fireEvent would call act() inside waitFor, which React warns about): no React state here.
      window.dispatchEvent(new Event('pointerdown'));
      expect(controls().length).toBeGreaterThan(0);
    });
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    const sent = controls().length;
    await waitFor(() => expect(session.proxy.sessions.get(session.store.getState().sessionId!)!.controls.length).toBe(sent)); // nothing in flight
    fireEvent.pointerDown(window);
    fireEvent.keyDown(window);
    await session.resetIdleTimeout(); // a request after the activity: the activity sent nothing before it
    expect(controls()).toHaveLength(sent + 1);
  });

  it('ControlBar: End cancels a queued call while the other controls wait for active', async () => {
    const session = createTestSession({ initialState: { phase: 'queued', sessionStatus: 'QUEUED' } });
    withSession(session, <ControlBar />);
    expect(screen.getByRole('button', { name: 'Microphone' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'End' }));
    await reach(session, (st) => st.phase === 'ended');
    expect(screen.getByRole('button', { name: 'End' })).toBeDisabled();
  });

  it('ImageSwapper sends update-image and follows image_change_* events', async () => {
    const session = createTestSession({ initialState: { phase: 'active' } });
    const update = vi.spyOn(session, 'updateImage');
    withSession(session, <ImageSwapper prepare={false} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Image URL' }), 'https://cdn.test/new.png{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Apply new look' }));
    await lastResult(update);
    expect(screen.getByRole('status')).toHaveTextContent('Imagining…');
    act(() => session.transport.emitEvent({ type: 'image_change_complete' }));
    expect(screen.getByRole('status')).toHaveTextContent('New look applied.');
    act(() => session.transport.emitEvent({ type: 'image_change_error', error: 'could not download the image' }));
    // The visitor reads a sentence, not the service's text.
    expect(screen.getByRole('status')).toHaveTextContent('The avatar could not use this image. Try a different picture.');
    expect(screen.getByRole('status')).not.toHaveTextContent('could not download the image');
    // The same image cannot be applied twice; after the call, the status is cleared.
    act(() => session.transport.emitEvent({ type: 'image_change_complete' }));
    expect(screen.getByRole('status')).toHaveTextContent('New look applied.');
    expect(screen.getByRole('button', { name: 'Apply new look' })).toBeDisabled();
    await act(() => session.end('user'));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('SessionList lists rooms and sessions through the proxy, with pagination', async () => {
    const proxy = createFakeProxy();
    for (let i = 0; i < 3; i++) proxy.seedSession({ kind: 'room' });
    proxy.seedSession({ kind: 'session' });
    render(<SessionList proxyUrl="http://proxy.fake.test" fetch={proxy.fetch} limit={2} />);
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(screen.getByText('Page 1 of 2 · 3 total')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2 of 2 · 3 total')).toBeInTheDocument());
    await userEvent.click(screen.getByRole('tab', { name: 'Sessions' }));
    await waitFor(() => expect(screen.getByText('Page 1 of 1 · 1 total')).toBeInTheDocument());
    expect(screen.getByRole('columnheader', { name: 'Provider' })).toBeInTheDocument();
  });
});
