import './cleanup';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConnectionQualityView, describeConnection, en, MessagesProvider } from '../../../src/components';
import { ar, fr } from '../../../src/components/i18n/translations';
import type { CallStats } from '../../../src/core/index';

/**
 * Issue 39.4: a hooks UI had to guess how `roundTrip`, `packetLoss`, `jitter` and `connectionQuality` want their
 * numbers. `describeConnection` gives the sentence the bars give, for any catalogue.
 */
describe('describeConnection', () => {
  const stats = { rttMs: 310.4, packetLossPct: 2.5, jitterMs: 12 } as CallStats;

  it.each([
    ['en', en],
    ['fr', fr],
    ['ar', ar],
  ] as const)('is the accessible name of the quality bars (%s)', (_lang, messages) => {
    render(
      <MessagesProvider messages={messages}>
        <ConnectionQualityView quality="good" stats={stats} />
      </MessagesProvider>,
    );
    expect(screen.getByRole('img')).toHaveAccessibleName(describeConnection('good', stats, messages));
  });

  it('formats for the language, leaves unknown numbers out, and names the state alone without stats', () => {
    expect(describeConnection('good', stats)).toBe('Connection good (310 ms round trip, 2.5 % loss, 12 ms jitter)');
    expect(describeConnection('poor', { rttMs: null, packetLossPct: 7, jitterMs: null }, fr)).toBe('Connexion faible (7,0 % de perte)');
    expect(describeConnection('lost', null)).toBe('Connection reconnecting');
    expect(describeConnection('excellent', stats, ar)).toMatch(/^الاتصال ممتاز \(زمن الذهاب والإياب 310 /);
  });
});
