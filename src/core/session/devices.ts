import { isLiveAiError, LiveAiError } from '../errors';

/** The kinds of device a session can be told to use. */
export type DeviceKind = 'audioinput' | 'audiooutput' | 'videoinput';

/**
 * Whether `deviceId` names the system's default device: `''` (what `DeviceSelect` gives for "Default") or
 * `'default'` (Chromium's pseudo-device that follows the system's choice; Firefox and Safari list no such id).
 * Such a choice is never sent to the browser as an exact device, which would fail where the id does not exist.
 */
export const isDefaultDevice = (deviceId: string): boolean => deviceId === '' || deviceId === 'default';

const NAMES: Record<DeviceKind, string> = { audioinput: 'microphone', audiooutput: 'speaker', videoinput: 'camera' };

/** What a browser's device error means, by its `name` (DOMException names of getUserMedia and setSinkId). */
const REASONS: Record<string, string> = {
  OverconstrainedError: 'no such device (it was unplugged, or the id is not one of enumerateDevices())',
  NotFoundError: 'no such device (it was unplugged, or the id is not one of enumerateDevices())',
  NotReadableError: 'the device is in use by another application or could not be started',
  AbortError: 'the device could not be started',
  NotAllowedError: 'the visitor or the browser did not allow it',
  SecurityError: 'the page is not allowed to use devices (an insecure origin, or a permissions policy)',
  NotSupportedError: 'this browser cannot choose that kind of device',
};

/**
 * The `device_failed` error of a device switch that failed: the device's kind and id, what the browser said (its
 * error `name` and our reading of it) and what to do. A `LiveAiError` passes through unchanged.
 */
export function deviceError(kind: DeviceKind, deviceId: string, cause: unknown): LiveAiError {
  if (isLiveAiError(cause)) return cause;
  const name = (cause as { name?: unknown } | null)?.name;
  const browser = typeof name === 'string' && name !== 'Error' ? name : undefined;
  const reason = (browser && REASONS[browser]) ?? String((cause as Error | null)?.message ?? cause);
  const which = isDefaultDevice(deviceId) ? 'the default' : `"${deviceId}"`;
  return new LiveAiError(
    'device_failed',
    `could not use ${which} ${NAMES[kind]}: ${reason}${browser ? ` (${browser})` : ''}. ` +
      `Choose another device, or '' for the system default`,
    { cause },
  );
}
