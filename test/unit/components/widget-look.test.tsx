import './cleanup';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AvatarWidget } from '../../../src/components';
import { createFakeProxy, createTestSession } from '../../../src/testing';

const ORIGINAL = 'https://cdn.test/ada.png';
const NEW_LOOK = 'https://cdn.test/ada-cheerful.png';
/** The picture the stage shows behind its overlay (the poster), and the launcher's face. */
const poster = (c: HTMLElement) => c.querySelector('.liveai-stage__poster')?.getAttribute('src');
const launcherFace = (c: HTMLElement) => c.querySelector('.liveai-launcher__face img')?.getAttribute('src');

describe('after "Change look" the widget shows the look the avatar has now (issue 38.12)', () => {
  it('the ended screen and the launcher show the new look; the next call starts from the original', async () => {
    const session = createTestSession({
      proxy: createFakeProxy({ imageUrl: ORIGINAL }),
      initialState: { phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now(), imageUrl: ORIGINAL },
    });
    const { container } = render(
      <AvatarWidget session={session} variant="floating" initialState="active" imageUrl={ORIGINAL} imageSwapper microphone={false} />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'More options' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Change look' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Image URL' }), `${NEW_LOOK}{Enter}`);
    await userEvent.click(screen.getByRole('button', { name: 'Apply new look' }));
    await waitFor(() => expect(session.store.getState().image.status).toBe('requested'));
    // Not applied yet: the avatar still has its own look.
    expect(poster(container)).toBe(ORIGINAL);
    act(() => session.transport.emitEvent({ type: 'image_change_complete' }));
    expect(poster(container)).toBe(NEW_LOOK);

    await act(() => session.end('user'));
    await waitFor(() => expect(screen.getByText('Call ended')).toBeInTheDocument());
    expect(poster(container)).toBe(NEW_LOOK);
    await userEvent.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(launcherFace(container)).toBe(NEW_LOOK);

    // A new call starts from the agent's own look.
    await userEvent.click(screen.getByRole('button', { name: /Talk to/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Start again' }));
    await waitFor(() => expect(session.store.getState().phase).not.toBe('ended'));
    expect(poster(container)).toBe(ORIGINAL);
  });

  it('a look change that failed leaves the avatar as it was', async () => {
    const session = createTestSession({ initialState: { phase: 'active', sessionStatus: 'ACTIVE', activeAt: Date.now() } });
    const { container } = render(
      <AvatarWidget session={session} initialState="active" imageUrl={ORIGINAL} imageSwapper microphone={false} />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'More options' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Change look' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Image URL' }), `${NEW_LOOK}{Enter}`);
    await userEvent.click(screen.getByRole('button', { name: 'Apply new look' }));
    await waitFor(() => expect(session.store.getState().image.status).toBe('requested'));
    act(() => session.transport.emitEvent({ type: 'image_change_error', error: 'could not download the image' }));
    // A completion that follows (of another change, not the visitor's) shows no picture of the failed one.
    act(() => session.transport.emitEvent({ type: 'image_change_complete' }));
    await act(() => session.end('user'));
    await waitFor(() => expect(screen.getByText('Call ended')).toBeInTheDocument());
    expect(poster(container)).not.toBe(NEW_LOOK);
  });
});
