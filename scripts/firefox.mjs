// Firefox for headless runs here (tests and benches): Debian's firefox-esr driven by puppeteer-core over WebDriver
// BiDi (Playwright's Firefox needs its own patched build, which cannot be had here). puppeteer's fresh profile
// already points every background service (updates, safe browsing, telemetry, remote settings) at a dead host;
// the preferences below add what a media page needs, the counterpart of CHROMIUM_MEDIA_ARGS.
import puppeteer from 'puppeteer-core';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Fake camera and microphone granted without a prompt, autoplay allowed, host candidates on loopback, no mDNS. */
export const FIREFOX_MEDIA_PREFS = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
  // 0 = allow audible autoplay (1 = block audible, 5 = block all): a test of the blocking policy overrides it.
  'media.autoplay.default': 0,
  'media.autoplay.blocking_policy': 0,
  'media.peerconnection.ice.loopback': true,
  'media.peerconnection.ice.obfuscate_host_addresses': false,
  'media.peerconnection.ice.default_address_only': false,
  // Headless Firefox has no GPU: let WebGL run on its software rasteriser, as Chromium's SwiftShader does.
  'webgl.force-enabled': true,
  'webgl.disabled': false,
};

/**
 * Launches headless Firefox ESR with a fresh profile. `prefs` override FIREFOX_MEDIA_PREFS (for example
 * `{ 'media.autoplay.default': 1 }` to block audible autoplay as a visitor's browser may).
 * @param {{ prefs?: Record<string, unknown> }} [options]
 * @returns {Promise<import('puppeteer-core').Browser>}
 */
export function launchFirefox({ prefs = {} } = {}) {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: { ...FIREFOX_MEDIA_PREFS, ...prefs },
    defaultViewport: { width: 900, height: 820 },
  });
}
