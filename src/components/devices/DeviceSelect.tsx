import { useCallback, useContext, useEffect, useState } from 'react';
import { AvatarSessionContext, useMediaDevices } from '../../react';
import { DeviceSelectView, type AudioDeviceKind } from './DeviceSelectView';

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
