import './cleanup';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  BarVisualizerView,
  ConnectionQualityView,
  ImageSwapperView,
  MessagesProvider,
  SessionListView,
  type MessagesOverride,
  type SessionListRow,
} from '../../../src/components';
import { de, es, fr, ja } from '../../../src/components/i18n/translations';
import type { CallStats } from '../../../src/core/index';

const stats = { rttMs: 310.4, packetLossPct: 2.5, jitterMs: 12 } as CallStats;
const row = {
  session_id: 'abc',
  agent_id: 'agent-1',
  created_at: '2026-03-01T10:00:00Z',
  session_status: 'COMPLETED',
  credits_used: 1234.5,
} as unknown as SessionListRow;

const inLanguage = (messages: MessagesOverride, ui: React.ReactNode) =>
  render(<MessagesProvider messages={messages}>{ui}</MessagesProvider>);

describe('the admin list, the meters and the image checks speak the catalogue', () => {
  it('SessionListView: tabs, headers, statuses, dates, credits and pages in Spanish', () => {
    inLanguage(
      es,
      <SessionListView
        kind="rooms"
        onKindChange={() => undefined}
        items={[row]}
        pagination={{ page: 2, limit: 1, total: 1234, total_pages: 1234, has_more: true } as never}
        page={2}
        onPageChange={() => undefined}
        onRefresh={() => undefined}
      />,
    );
    expect(screen.getByRole('tab', { name: 'Salas' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Actualizar' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Agente' })).toBeInTheDocument();
    expect(screen.getByText('Completada')).toBeInTheDocument();
    expect(screen.getByText('1234,5 créditos')).toBeInTheDocument();
    expect(
      screen.getByText(new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(row.created_at))),
    ).toBeInTheDocument();
    // Numbers through Intl: 1234 pages is "1234" in Spanish (no grouping below 10 000), "1,234" in English.
    expect(
      screen.getByText(`Página 2 de ${new Intl.NumberFormat('es').format(1234)} · ${new Intl.NumberFormat('es').format(1234)} en total`),
    ).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Páginas' })).toBeInTheDocument();
  });

  it('SessionListView: a single override replaces one string, the rest stays English', () => {
    inLanguage(
      { listEmpty: 'No calls yet.', sessionStatus: { FAILED: 'Broke' } },
      <SessionListView
        kind="sessions"
        onKindChange={() => undefined}
        items={[]}
        pagination={null}
        page={1}
        onPageChange={() => undefined}
      />,
    );
    expect(screen.getByText('No calls yet.')).toBeInTheDocument();
    expect(screen.getByText('Page 1')).toBeInTheDocument();
  });

  it('ConnectionQualityView: words and numbers in French (decimal comma), Japanese', () => {
    const { unmount } = inLanguage(fr, <ConnectionQualityView quality="good" stats={stats} />);
    expect(screen.getByRole('img')).toHaveAccessibleName('Connexion bonne (aller-retour 310 ms, 2,5 % de perte, gigue 12 ms)');
    unmount();
    inLanguage(ja, <ConnectionQualityView quality="lost" />);
    expect(screen.getByRole('img')).toHaveAccessibleName('接続：再接続中');
  });

  it('ConnectionQualityView: English stays as it was', () => {
    render(<ConnectionQualityView quality="good" stats={stats} />);
    expect(screen.getByRole('img')).toHaveAccessibleName('Connection good (310 ms round trip, 2.5 % loss, 12 ms jitter)');
  });

  it('BarVisualizerView: its name and the agent state in German', () => {
    inLanguage(de, <BarVisualizerView bands={[]} state="thinking" />);
    expect(screen.getByRole('img')).toHaveAccessibleName('Ton des Avatars: Denkt nach…');
  });

  it('ImageSwapperView: the checks before sending in German', () => {
    inLanguage(de, <ImageSwapperView onSubmit={() => undefined} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Bild-URL' }), { target: { value: 'not a url' } });
    fireEvent.submit(screen.getByRole('textbox', { name: 'Bild-URL' }).closest('form')!);
    expect(screen.getByRole('status')).toHaveTextContent(de.imageBadUrl);
  });
});
