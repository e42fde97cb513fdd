import './cleanup';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessagesProvider, TranscriptPanelView } from '../../../src/components';
import { ar } from '../../../src/components/i18n/translations';

/**
 * Issue 39.5: in a right-to-left widget, an English reply's final period showed on the wrong side. What was said
 * carries its own direction (`dir="auto"`), in the conversation and in the caption over the video.
 */
describe('transcript text keeps its own direction in a right-to-left widget', () => {
  const lines = [{ id: 1, role: 'agent' as const, text: 'Hello! How can I help?', at: 1 }];

  it.each(['conversation', 'caption'] as const)('%s', (mode) => {
    render(
      <MessagesProvider messages={ar}>
        <TranscriptPanelView lines={lines} mode={mode} />
      </MessagesProvider>,
    );
    for (const el of screen.getAllByText('Hello! How can I help?')) expect(el).toHaveAttribute('dir', 'auto');
  });
});
