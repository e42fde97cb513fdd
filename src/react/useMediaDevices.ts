import { useEffect, useState } from 'react';

/**
 * The browser's media devices of one kind (`audioinput`, `audiooutput`, `videoinput`), kept current on
 * `devicechange`. Labels are empty until the page has media permission (browser rule). Returns [] during SSR and
 * where `navigator.mediaDevices` is missing.
 * @public
 */
export function useMediaDevices(kind: MediaDeviceKind): MediaDeviceInfo[] {
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    const md = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!md?.enumerateDevices) return;
    let live = true;
    const refresh = () => {
      md.enumerateDevices().then(
        (all) => live && setDevices(all.filter((d) => d.kind === kind)),
        () => live && setDevices([]),
      );
    };
    refresh();
    md.addEventListener?.('devicechange', refresh);
    return () => {
      live = false;
      md.removeEventListener?.('devicechange', refresh);
    };
  }, [kind]);
  return devices;
}
