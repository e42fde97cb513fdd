import { useCallback, useContext, useEffect, useId, useState } from 'react';
import { cx } from '../format';
import { useMessages } from '../i18n/use-messages';
import { formatNumber } from '../i18n/messages';
import { AvatarSessionContext, useMediaDevices } from '../../react';

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
  // No list yet (the browser has not answered): no hint, so the select does not change height when the named list
  // arrives (it would shift the menu that holds it).
  const named = devices.length === 0 || (listed.length > 0 && listed.every((d) => d.label));
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

/** Where the choice of each kind is remembered (per origin, shared by every widget of the site). */
const storageKey = (kind: AudioDeviceKind) => `liveai-kit:device:${kind}`;

/** The remembered `deviceId` of `kind`, or `''`; storage that is missing, full or blocked counts as empty. */
function readChoice(kind: AudioDeviceKind): string {
  try {
    return globalThis.localStorage?.getItem(storageKey(kind)) ?? '';
  } catch {
    return '';
  }
}

function writeChoice(kind: AudioDeviceKind, deviceId: string): void {
  try {
    if (deviceId) globalThis.localStorage?.setItem(storageKey(kind), deviceId);
    else globalThis.localStorage?.removeItem(storageKey(kind));
  } catch {
    // Private mode or a full quota: the choice holds for this page only.
  }
}

/**
 * The remembered device of `kind` (`''`: the browser's default) and a setter that remembers a new one in
 * `localStorage` under `liveai-kit:device:audioinput` / `liveai-kit:device:audiooutput`. Failure-tolerant: where
 * storage is unavailable the choice lasts for the page.
 */
export function useDeviceChoice(kind: AudioDeviceKind): [string, (deviceId: string) => void] {
  const [choice, setChoice] = useState(() => readChoice(kind));
  const choose = useCallback(
    (deviceId: string) => {
      writeChoice(kind, deviceId);
      setChoice(deviceId);
    },
    [kind],
  );
  return [choice, choose];
}

/** Whether this browser can route audio to a chosen output (`HTMLMediaElement.setSinkId`; not Safari, not iOS). */
export const canChooseSpeaker = (): boolean => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/**
 * What the session is given for a choice: the deviceId, or for "Default" the browser's default microphone (its
 * `default` entry, else the first listed) or `''` for the default speaker.
 */
export function deviceForSession(kind: AudioDeviceKind, choice: string, devices: readonly MediaDeviceInfo[]): string | null {
  if (choice && devices.some((d) => d.deviceId === choice)) return choice;
  if (kind === 'audiooutput') return '';
  return devices.find((d) => d.deviceId === 'default')?.deviceId ?? (devices[0]?.deviceId || null);
}

/**
 * Props of {@link DeviceSelect}.
 * @public
 */
export interface DeviceSelectProps {
  /** `audioinput` (microphone, default) or `audiooutput` (speaker). */
  kind?: AudioDeviceKind;
  /** Called with the chosen `deviceId` (`''`: the browser's default) after the session was told. */
  onChange?: (deviceId: string) => void;
  /** Visible label (default `Microphone` or `Speaker`). */
  label?: string;
  className?: string;
}

/**
 * Chooses the microphone or the speaker of the nearest session (works without one too: it then only remembers the
 * choice and calls `onChange`). The list follows plugged and unplugged devices. The choice is remembered in
 * `localStorage` (`liveai-kit:device:audioinput` / `…:audiooutput`) and applied to the session when the list is
 * known: before a call it is recorded and the call opens that microphone; during a call the microphone switches at
 * once (LiveKit and Daily), the speaker through `HTMLMediaElement.setSinkId`. Where the browser cannot choose the
 * output (Safari, iOS; Firefox lists no outputs) the speaker select renders nothing. Device names are hidden by the
 * browser until the page may use the microphone (see {@link DeviceSelectView}).
 * @public
 */
export function DeviceSelect({ kind = 'audioinput', onChange, label, className }: DeviceSelectProps) {
  const session = useContext(AvatarSessionContext);
  const devices = useMediaDevices(kind);
  const [choice, choose] = useDeviceChoice(kind);
  const usable = kind === 'audioinput' || canChooseSpeaker();
  // Once the list is known, the session gets the remembered device (the join opens it; a call switches to it).
  const applied = devices.length ? deviceForSession(kind, choice, devices) : null;
  useEffect(() => {
    if (usable && session && applied !== null) void session.setDevice(kind, applied).catch(() => undefined);
  }, [session, kind, applied, usable]);
  if (!usable || (kind === 'audiooutput' && !devices.some((d) => d.deviceId))) return null;
  return (
    <DeviceSelectView
      kind={kind}
      devices={devices}
      value={choice}
      label={label}
      className={className}
      onChange={(id) => {
        choose(id);
        onChange?.(id);
      }}
    />
  );
}
