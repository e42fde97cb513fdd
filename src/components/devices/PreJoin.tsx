import { useEffect, useRef, useState } from 'react';
import { useAvatarSession } from '../../react';
import { meterTrack } from '../../react/audio-meter';
import { DeviceSelect, useDeviceChoice } from './DeviceSelect';
import { PreJoinView, type PreJoinStatus } from './PreJoinView';

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
