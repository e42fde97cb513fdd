import './cleanup';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AvatarStageView,
  AvatarWidgetView,
  ControlBarView,
  MessagesProvider,
  en,
  explainError,
  formatClock,
  formatCredits,
  resolveMessages,
  type Messages,
} from '../../../src/components';
import { TimeLimitCountdown } from '../../../src/components/stage/call-screens';
import { ar, de, es, fr, ja } from '../../../src/components/i18n/translations';
import { LiveAiError } from '../../../src/core/errors';

const all: Record<string, Messages> = { en, es, fr, de, ja, ar };

describe('message catalogue', () => {
  afterEach(() => vi.useRealTimers());

  it('every translation has every key English has, each a non-empty string or a function', () => {
    const shape = (m: object): string[] =>
      Object.entries(m).flatMap(([k, v]) => (v && typeof v === 'object' ? shape(v).map((s) => `${k}.${s}`) : [k]));
    const keys = shape(en).sort();
    for (const [lang, m] of Object.entries(all)) {
      expect(shape(m).sort(), lang).toEqual(keys);
      for (const v of Object.values(m)) if (typeof v === 'string') expect(v.trim(), lang).not.toBe('');
    }
  });

  it('a partial override replaces single strings and merges grouped ones key by key', () => {
    const m = resolveMessages({ startCall: 'Call Ava', errorTitles: { busy: 'Ava is on another call.' } }, es);
    expect(m.startCall).toBe('Call Ava');
    expect(m.tryAgain).toBe('Reintentar');
    expect(m.errorTitles.busy).toBe('Ava is on another call.');
    expect(m.errorTitles.timeout).toBe(es.errorTitles.timeout);
    expect(resolveMessages(undefined)).toBe(en);
  });

  it('credits and clocks go through Intl in the catalogue locale, with its plural forms', () => {
    expect(formatCredits(1)).toBe('1 credit');
    expect(formatCredits(1.256)).toBe('1.26 credits');
    expect(formatCredits(1234.5, es)).toBe('1234,5 créditos');
    expect(formatCredits(1, fr)).toBe('1 crédit');
    expect(formatCredits(1.5, fr)).toBe('1,5 crédit');
    expect(formatCredits(2.5, de)).toBe('2,5 Credits');
    expect(formatCredits(3, ja)).toBe('3 クレジット');
    expect(formatCredits(1, ar)).toBe('وحدة رصيد واحدة');
    expect(formatCredits(2, ar)).toBe('وحدتا رصيد');
    expect(formatCredits(5, ar)).toBe(`${new Intl.NumberFormat('ar').format(5)} وحدات رصيد`);
    expect(formatClock(29_001)).toBe('0:30');
    expect(formatClock(29_000, 'de')).toBe('0:29');
    expect(formatClock(-5)).toBe('0:00');
    expect(formatClock(61_000, 'ar')).toBe(
      `${new Intl.NumberFormat('ar').format(1)}:${new Intl.NumberFormat('ar', { minimumIntegerDigits: 2 }).format(1)}`,
    );
    // The formatters are made once per locale and kept: each locale still gets its own.
    expect(formatClock(61_000)).toBe('1:01');
    expect(formatCredits(1234.5)).toBe('1,234.5 credits');
    expect(formatCredits(1234.5, es)).toBe('1234,5 créditos');
  });

  it('explainError speaks the chosen language; the technical detail stays as it came', () => {
    const e = explainError(new LiveAiError('transport_failed', 'no WebRTC', { retryable: false }), fr);
    expect(e).toEqual({
      title: 'Impossible de rejoindre l’appel.',
      hint: 'Ce navigateur ne peut pas passer d’appels vidéo. Ouvrez cette page dans une version récente de Chrome, Edge, Firefox ou Safari.',
      detail: 'no WebRTC',
      retryable: false,
    });
    // A non-retryable code without a final hint of its own falls back to its ordinary hint.
    expect(explainError({ code: 'not_found', retryable: false }, de).hint).toBe('Er wurde möglicherweise entfernt.');
  });

  it('the widget, stage and controls render the provider language; the widget root carries lang and dir', () => {
    render(
      <MessagesProvider messages={ar}>
        <AvatarWidgetView
          state="active"
          phase="active"
          stage={<AvatarStageView phase="ended" cost={2} showCost />}
          controls={<ControlBarView micEnabled speakerMuted={false} volume={1} onEnd={() => undefined} />}
        />
      </MessagesProvider>,
    );
    // The panel and the stage are both named after the avatar, "الأفاتار" by default.
    const [panel] = screen.getAllByRole('region', { name: 'الأفاتار' });
    expect(panel!.closest('.liveai-widget')).toHaveAttribute('dir', 'rtl');
    expect(panel!.closest('.liveai-widget')).toHaveAttribute('lang', 'ar');
    expect(within(panel!).getByRole('button', { name: 'إنهاء' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('استهلكت هذه المكالمة وحدتا رصيد.');
  });

  it('showCost={false} leaves the cost line out of the ended screen', () => {
    render(<AvatarStageView phase="ended" cost={1.25} showCost={false} />);
    expect(screen.getByRole('status')).toHaveTextContent('Call ended');
    expect(screen.getByRole('status')).not.toHaveTextContent('credit');
  });

  it('the time-limit countdown counts in the chosen language', () => {
    vi.useFakeTimers({ now: 0 });
    render(
      <MessagesProvider messages={es}>
        <TimeLimitCountdown expiresAt={29_000} />
      </MessagesProvider>,
    );
    expect(screen.getByText('La llamada termina en 0:29')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('La llamada termina en 30 segundos (límite de tiempo).');
  });
});
