import './cleanup';
import { render } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { MessagesProvider } from '../../../src/components/i18n/context';
import { formatClock, formatNumber } from '../../../src/components/i18n/messages';
import { de } from '../../../src/components/i18n/translations';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('the number formats of a call are made while the page is idle, not on the first label of the call', () => {
  vi.useFakeTimers();
  const made = vi.spyOn(Intl, 'NumberFormat');
  render(
    <MessagesProvider messages={de}>
      <p>before the call</p>
    </MessagesProvider>,
  );
  expect(made).not.toHaveBeenCalled(); // not during the render itself
  vi.runAllTimers();
  expect(made.mock.calls.map((c) => c[0])).toEqual(['de', 'de', 'de']);
  made.mockClear();
  // The call's labels (the minimize label, the clocks) reuse them, and still speak the locale.
  expect(formatNumber(30, de)).toBe('30');
  expect(formatClock(61_000, 'de')).toBe('1:01');
  expect(formatNumber(1234, de)).toBe('1.234');
  expect(made).not.toHaveBeenCalled();
});
