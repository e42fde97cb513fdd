import { useId } from 'react';
import { cx } from '../format';
import { useMessages } from '../i18n/context';
import { formatNumber } from '../i18n/messages';

/**
 * The kinds of device {@link DeviceSelectView} chooses: the microphone (`audioinput`) or the speaker (`audiooutput`).
 * @public
 */
export type AudioDeviceKind = 'audioinput' | 'audiooutput';

/**
 * Props of {@link DeviceSelectView}.
 * @public
 */
export interface DeviceSelectViewProps {
  kind: AudioDeviceKind;
  /** The devices of `kind`, as `navigator.mediaDevices.enumerateDevices()` lists them (only `deviceId` and `label` are read). */
  devices: readonly Pick<MediaDeviceInfo, 'deviceId' | 'label'>[];
  /** The chosen `deviceId`; `''` (or one not in `devices`) selects "Default", the browser's own choice. */
  value?: string;
  onChange?: (deviceId: string) => void;
  /** Visible label (default `Microphone` or `Speaker` from the message catalogue). */
  label?: string;
  disabled?: boolean;
  className?: string;
}

/** The browser's own pseudo-devices: "Default" stands for them. */
const PSEUDO = new Set(['', 'default']);

/**
 * A labelled `<select>` of microphones or speakers. Its first option, "Default", is the browser's own choice (value
 * `''`). Until the page may use the microphone, browsers hide device names (and often all but one device): the
 * options are then numbered ("Microphone 2") and a hint under the select says the names appear once the microphone
 * is allowed. Pure view.
 * @public
 */
export function DeviceSelectView({ kind, devices, value = '', onChange, label, disabled, className }: DeviceSelectViewProps) {
  const m = useMessages();
  const id = useId();
  const listed = devices.filter((d) => !PSEUDO.has(d.deviceId));
  const named = listed.length > 0 && listed.every((d) => d.label);
  const numbered = kind === 'audioinput' ? m.microphoneN : m.speakerN;
  const selected = listed.some((d) => d.deviceId === value) ? value : '';
  return (
    <div className={cx('liveai-device', className)} data-kind={kind}>
      <label className="liveai-device__label" htmlFor={id}>
        {label ?? (kind === 'audioinput' ? m.microphone : m.speaker)}
      </label>
      <select
        id={id}
        className="liveai-input liveai-device__select"
        value={selected}
        disabled={disabled}
        aria-describedby={named ? undefined : `${id}-hint`}
        onChange={(e) => onChange?.(e.currentTarget.value)}
      >
        <option value="">{m.defaultDevice}</option>
        {listed.map((d, i) => (
          <option key={d.deviceId} value={d.deviceId}>
            {d.label || numbered(formatNumber(i + 1, m))}
          </option>
        ))}
      </select>
      {!named && (
        <p className="liveai-device__hint" id={`${id}-hint`}>
          {m.deviceNamesHidden}
        </p>
      )}
    </div>
  );
}
