import { useEffect, useState } from 'react';
import { useCallStats } from '../../react';
import { callQuality, type CallQuality } from '../quality/ConnectionQuality';
import { Icon } from '../controls/icons';
import { useMessages } from '../i18n/use-messages';

/** Consecutive samples (2 s apart) of one kind that flip the hint: poor ones show it, good ones clear it. */
export const HINT_SAMPLES = 2;

/** The hint's memory: shown or not, the current run of poor and of good samples, and whether the visitor closed it. */
export interface HintState {
  shown: boolean;
  poor: number;
  good: number;
  dismissed: boolean;
}
export const NO_HINT: HintState = { shown: false, poor: 0, good: 0, dismissed: false };

/**
 * The next hint state after one quality sample. `poor` for HINT_SAMPLES samples in a row shows the hint (unless the
 * visitor dismissed it during this bad spell); `good` or `excellent` for HINT_SAMPLES in a row clears it and forgets
 * the dismissal; `unknown` (no stats) changes nothing. One stray sample never flips it either way.
 */
export function nextHint(s: HintState, quality: CallQuality): HintState {
  if (quality === 'unknown') return s;
  if (quality === 'poor') {
    const poor = s.poor + 1;
    return { ...s, poor, good: 0, shown: s.shown || poor >= HINT_SAMPLES };
  }
  const good = s.good + 1;
  return good >= HINT_SAMPLES ? { ...NO_HINT, good } : { ...s, good, poor: 0 };
}

/**
 * "Your connection is unstable" while the call's quality stays poor (see {@link nextHint}): a polite status line the
 * visitor can dismiss; it blocks nothing. Samples `useCallStats` every 2 s while the room is connected.
 */
export function ConnectionHint() {
  const m = useMessages();
  const stats = useCallStats();
  const [hint, setHint] = useState<HintState>(NO_HINT);
  // Each sample is a new object: one state step per sample.
  useEffect(() => {
    if (stats) setHint((s) => nextHint(s, callQuality(stats)));
  }, [stats]);
  const visible = hint.shown && !hint.dismissed;
  return (
    // The live region stays in the page so screen readers announce the line when it appears.
    <div className="liveai-widget__hint" role="status" data-shown={visible || undefined}>
      {visible && (
        <>
          <span className="liveai-widget__hint-text">{m.connectionUnstable}</span>
          <button
            type="button"
            className="liveai-button liveai-button--icon liveai-button--ghost"
            aria-label={m.dismiss}
            title={m.dismiss}
            onClick={() => setHint((s) => ({ ...s, dismissed: true }))}
          >
            <Icon name="close" />
          </button>
        </>
      )}
    </div>
  );
}
