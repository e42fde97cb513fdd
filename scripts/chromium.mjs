// The Chromium flags of every headless run here (tests, benches, screenshots): Debian's chromium, no network of
// its own (background networking, component updates and sync off), and for media pages a fake camera and
// microphone, autoplay allowed and host candidates on loopback and private addresses.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, no sandbox (root), no GPU, no QUIC, and none of Chromium's own traffic. */
export const CHROMIUM_BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** For pages that join a room: fake devices granted, autoplay, loopback and non-mDNS host candidates. */
export const CHROMIUM_MEDIA_ARGS = [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

export const CHROMIUM_ARGS = [...CHROMIUM_BASE_ARGS, ...CHROMIUM_MEDIA_ARGS];
