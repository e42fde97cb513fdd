import { useId, type ReactNode } from 'react';
import { BarVisualizerView } from '../visualizer/BarVisualizerView';
import { useMessages } from '../i18n/context';

/**
 * Where the pre-join step stands: `asking` (the browser asks for the microphone), `ready` (the level meter moves),
 * `denied` (permission refused), `missing` (no microphone), `busy` (it could not be opened).
 * @public
 */
export type PreJoinStatus = 'asking' | 'ready' | 'denied' | 'missing' | 'busy';

/**
 * Props of {@link PreJoinView}.
 * @public
 */
export interface PreJoinViewProps {
  status: PreJoinStatus;
  /** Levels of the chosen microphone, 0–1 per band (low to high); empty draws the meter at rest. */
  bands?: readonly number[];
  /** The device selects (e.g. `<DeviceSelect kind="audioinput" />` and `kind="audiooutput"`). */
  devices?: ReactNode;
  /** Starts the call with the microphone. */
  onJoin?: () => void;
  /** Starts the call with the microphone off (offered when it is denied, missing or busy). */
  onJoinWithoutMic?: () => void;
  /** Asks for the microphone again (offered when it is denied, missing or busy). */
  onRetry?: () => void;
}

/**
 * The widget's optional step before a call: a live level meter of the chosen microphone, the device selects and
 * "Join call"; when the microphone is unavailable, why (translated) with "Try again" and "Join without microphone".
 * Pure view.
 * @public
 */
export function PreJoinView({ status, bands = [], devices, onJoin, onJoinWithoutMic, onRetry }: PreJoinViewProps) {
  const m = useMessages();
  const id = useId();
  const problem = status === 'denied' ? m.micDenied : status === 'missing' ? m.micMissing : status === 'busy' ? m.micBusy : null;
  return (
    <section className="liveai-prejoin" aria-labelledby={id} data-status={status}>
      <h3 className="liveai-prejoin__title" id={id}>
        {m.preJoinTitle}
      </h3>
      <BarVisualizerView className="liveai-prejoin__meter" bands={status === 'ready' ? bands : []} count={7} label={m.micLevel} />
      <p className="liveai-prejoin__status" role="status">
        {status === 'asking' ? m.preJoinAsking : problem}
      </p>
      {devices && <div className="liveai-prejoin__devices">{devices}</div>}
      <div className="liveai-prejoin__actions">
        {problem ? (
          <>
            <button type="button" className="liveai-button" onClick={onRetry}>
              {m.tryAgain}
            </button>
            <button type="button" className="liveai-button liveai-button--primary" onClick={onJoinWithoutMic}>
              {m.joinWithoutMic}
            </button>
          </>
        ) : (
          <button type="button" className="liveai-button liveai-button--primary" onClick={onJoin} disabled={status === 'asking'}>
            {m.join}
          </button>
        )}
      </div>
    </section>
  );
}
