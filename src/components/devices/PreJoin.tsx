import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { BarVisualizerView } from '../visualizer/BarVisualizer';
import { useMessages } from '../i18n/use-messages';
import { useAvatarSession } from '../../react';
import { meterTrack } from '../../react/audio-meter';
import { DeviceSelect, useDeviceChoice } from './DeviceSelect';

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
 * A compact card; inside a stage (the widget puts it there) it floats over the lower part of the avatar's picture, so
 * the face stays in view. Pure view.
 * @public
 */
export function PreJoinView({ status, bands = [], devices, onJoin, onJoinWithoutMic, onRetry }: PreJoinViewProps) {
  const m = useMessages();
  const id = useId();
  const problem = status === 'denied' ? m.micDenied : status === 'missing' ? m.micMissing : status === 'busy' ? m.micBusy : null;
  return (
    <section className="liveai-prejoin" aria-labelledby={id} data-status={status}>
      <div className="liveai-prejoin__head">
        <h3 className="liveai-prejoin__title" id={id}>
          {m.preJoinTitle}
        </h3>
        <BarVisualizerView className="liveai-prejoin__meter" bands={status === 'ready' ? bands : []} count={7} label={m.micLevel} />
      </div>
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

/** `getUserMedia`'s error, as the step explains it. */
const statusOf = (e: unknown): PreJoinStatus => {
  const name = (e as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  return 'busy';
};

/**
 * Props of {@link PreJoin}.
 * @public
 */
export interface PreJoinProps {
  /**
   * Called inside the click on "Join call" (or "Join without microphone") once the preview microphone is released and
   * the session has the chosen device and microphone wish: start the call here (`session.start()`).
   */
  onJoin: () => void;
}

/**
 * The pre-join step of the nearest session: asks for the microphone, shows its live level (a preview track, measured
 * with the Web Audio API), the microphone and speaker selects (remembered, see {@link DeviceSelect}) and "Join call".
 * The preview track is stopped when the step unmounts and before `onJoin`, so the call opens the microphone alone.
 * Denied, missing or busy: a translated explanation, "Try again" and "Join without microphone" (the call then
 * starts with the microphone off; chat still works).
 * @public
 */
export function PreJoin({ onJoin }: PreJoinProps) {
  const session = useAvatarSession();
  const [choice] = useDeviceChoice('audioinput');
  const [mic, setMic] = useState(choice);
  const [status, setStatus] = useState<PreJoinStatus>('asking');
  const [bands, setBands] = useState<number[]>([]);
  const [attempt, setAttempt] = useState(0);
  const [granted, setGranted] = useState(false);
  const stopRef = useRef<() => void>(() => {});

  useEffect(() => {
    const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!media?.getUserMedia) return setStatus('missing');
    let live = true;
    let stream: MediaStream | null = null;
    let stopMeter = () => {};
    const stop = () => {
      live = false;
      stopMeter();
      for (const t of stream?.getTracks() ?? []) t.stop();
      stream = null;
    };
    stopRef.current = stop;
    media.getUserMedia({ audio: mic ? { deviceId: { exact: mic } } : true }).then(
      (s) => {
        stream = s;
        if (!live) return stop();
        const track = s.getAudioTracks()[0];
        if (track) stopMeter = meterTrack(track, 7, (_level, b) => setBands(b));
        setStatus('ready');
        setGranted(true);
      },
      (e: unknown) => {
        // A remembered device that is gone: fall back to the browser's default once.
        if (live && mic && statusOf(e) === 'missing') return setMic('');
        if (live) setStatus(statusOf(e));
      },
    );
    return stop;
  }, [mic, attempt]);

  const join = (withMic: boolean) => {
    stopRef.current();
    // The chosen microphone is already the session's: DeviceSelect gives it the choice as it is made.
    void session.setMicEnabled(withMic).catch(() => undefined);
    onJoin();
  };
  return (
    <PreJoinView
      status={status}
      bands={bands}
      // Mounted again once the microphone is allowed: the browser lists the devices with their names only then.
      devices={
        <>
          <DeviceSelect key={`in-${granted}`} kind="audioinput" onChange={setMic} />
          <DeviceSelect key={`out-${granted}`} kind="audiooutput" />
        </>
      }
      onJoin={() => join(true)}
      onJoinWithoutMic={() => join(false)}
      onRetry={() => (setStatus('asking'), setAttempt((n) => n + 1))}
    />
  );
}
