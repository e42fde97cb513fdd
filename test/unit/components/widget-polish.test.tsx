import './cleanup';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarStageView, AvatarWidget, QueueProgressView } from '../../../src/components';
import { propsFromAttributes } from '../../../src/element/attributes';
import { replyTo } from '../../../src/emulator/app-messages';
import { createFakeProxy, createTestSession } from '../../../src/testing';

/** Issue 28: the first impression, the slow create call, the Change look sheet, the element's new attributes. */
describe('the widget, polished (issue 28)', () => {
  afterEach(() => vi.unstubAllGlobals());

  const stubReducedMotion = (reduce: boolean) =>
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: reduce && query.includes('reduce'),
      addEventListener: () => {},
      removeEventListener: () => {},
    }));

  it('before a call: the name over the picture, a muted looping preview, or the initial without a picture', async () => {
    stubReducedMotion(false);
    const { container, rerender } = render(
      <AvatarStageView phase="idle" name="Ada" imageUrl="https://x.test/a.png" previewSrc="https://x.test/a.webm" onStart={() => {}} />,
    );
    expect(screen.getByText('Ada')).toBeInTheDocument();
    const preview = await waitFor(() => container.querySelector<HTMLVideoElement>('video.liveai-stage__preview')!);
    expect(preview).toHaveAttribute('src', 'https://x.test/a.webm');
    expect(preview).toHaveAttribute('poster', 'https://x.test/a.png');
    expect(preview.muted && preview.loop && preview.autoplay).toBe(true);
    expect(preview).toHaveAttribute('playsinline');
    rerender(<AvatarStageView phase="idle" name="Ada" onStart={() => {}} />);
    expect(container.querySelector('.liveai-stage__initial')).toHaveTextContent('A');
  });

  it('prefers-reduced-motion: no preview video, the picture stays', () => {
    stubReducedMotion(true);
    const { container } = render(
      <AvatarStageView phase="idle" name="Ada" imageUrl="https://x.test/a.png" previewSrc="https://x.test/a.webm" />,
    );
    expect(container.querySelector('.liveai-stage__preview')).toBeNull();
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://x.test/a.png');
  });

  it('while the create call runs, no cold start is promised; after 8 s it says it takes longer, without jargon', () => {
    const { rerender } = render(<QueueProgressView phase="creating" elapsedMs={2000} estimateMs={150_000} progress={0.04} slow={false} />);
    expect(screen.getByRole('status').textContent).toBe('usually a few seconds');
    expect(screen.queryByText(/2:30/)).toBeNull();
    rerender(<QueueProgressView phase="creating" elapsedMs={9000} estimateMs={150_000} progress={0.17} slow={false} />);
    expect(screen.getByRole('status').textContent).toBe('taking longer than usual');
    rerender(<QueueProgressView phase="queued" elapsedMs={21_000} estimateMs={160_000} progress={0.2} slow />);
    expect(screen.getByRole('status').textContent).toBe('More traffic than usual: up to 2:40');
    expect(document.body.textContent).not.toMatch(/service|cold start/);
  });

  it('the clock ticks from the click on Start, before the session is queued', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let answer!: () => void;
      const gate = new Promise<void>((r) => (answer = r));
      const proxy = createFakeProxy();
      // The create call answers only when told: the session stays `creating`.
      const slow = (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === 'POST' && String(input).endsWith('/rooms')) await gate;
        return proxy.fetch(input, init);
      }) as typeof fetch;
      const session = createTestSession({ proxy, fetch: slow });
      render(<AvatarWidget session={session} variant="inline" />);
      await userEvent.click(screen.getByRole('button', { name: 'Start call' }));
      expect(session.store.getState().phase).toBe('creating');
      await act(() => vi.advanceTimersByTimeAsync(3000));
      expect(screen.getByText('0:03')).toBeInTheDocument();
      answer();
    } finally {
      vi.useRealTimers();
    }
  });

  it('"Change look" lives in "More options", opens a sheet, focuses its heading; Escape puts focus back', async () => {
    const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
    render(<AvatarWidget session={session} variant="inline" imageSwapper microphone={false} />);
    // Not a row of its own before it is wanted.
    expect(screen.queryByRole('button', { name: 'Change look' })).toBeNull();
    const button = screen.getByRole('button', { name: 'More options' });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(await screen.findByRole('button', { name: 'Change look' }));
    // Its code downloads on this first open.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Change look' })).toHaveFocus());
    expect(screen.getByRole('region', { name: 'Change look' })).toContainElement(screen.getByRole('button', { name: 'Apply new look' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('heading', { name: 'Change look' })).toBeNull();
    expect(button).toHaveFocus();
  });

  it('<liveai-avatar preview-src minimize-keeps-call> become previewSrc and minimizeKeepsCall', () => {
    const el = document.createElement('div');
    expect(propsFromAttributes(el)).toMatchObject({ previewSrc: undefined, minimizeKeepsCall: false });
    el.setAttribute('preview-src', '/ada.webm');
    el.setAttribute('minimize-keeps-call', '');
    expect(propsFromAttributes(el)).toMatchObject({ previewSrc: '/ada.webm', minimizeKeepsCall: true });
  });

  it('the local service greets, admits what it cannot do, and does not call anyone "user"', () => {
    expect(replyTo('Hello!', 'user')).toMatch(/^Hello! I am a practice avatar/);
    expect(replyTo('What is the weather?', 'Sam')).toBe(
      'Good question, Sam. I am a practice avatar, so I cannot look that up, but I heard you ask: "What is the weather?"',
    );
    expect(replyTo('I need a refund', 'user')).not.toContain('user');
  });
});
