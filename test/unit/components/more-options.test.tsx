import './cleanup';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { AvatarWidget } from '../../../src/components';
import { createTestSession } from '../../../src/testing';

/**
 * "More options" names the panel it opens (`aria-controls`) only while that panel is in the page: its rows come in
 * their own chunk on the first open, and a button that points at an id nothing has yet leaves a screen reader with
 * a dangling reference.
 */
it('"More options" names its panel only once the panel exists', async () => {
  // The call's parts are there (fetched before the click on Start, as on a page); the menu's rows are not yet.
  await import('../../../src/components/widget/call-ui');
  const session = createTestSession({ initialState: { phase: 'active', activeAt: Date.now() } });
  render(<AvatarWidget session={session} variant="inline" microphone={false} />);
  const button = await screen.findByRole('button', { name: 'More options' });
  expect(button).not.toHaveAttribute('aria-controls');
  const names = () => {
    const id = button.getAttribute('aria-controls');
    return id === null ? null : document.getElementById(id);
  };
  // Right after the first click the menu's chunk is still on its way.
  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  if (button.hasAttribute('aria-controls')) expect(names()).not.toBeNull();
  const panel = await waitFor(() => screen.getByRole('group', { name: 'More options' }));
  expect(names()).toBe(panel);
  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'false');
  expect(button).not.toHaveAttribute('aria-controls');
});
