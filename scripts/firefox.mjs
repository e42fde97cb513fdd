// Firefox for headless runs here (tests and benches): Debian's firefox-esr driven by puppeteer-core over WebDriver
// BiDi (Playwright's Firefox needs its own patched build, which cannot be had here). puppeteer's fresh profile
// already points every background service (updates, safe browsing, telemetry, remote settings) at a dead host;
// the preferences below add what a media page needs, the counterpart of CHROMIUM_MEDIA_ARGS.
import puppeteer from 'puppeteer-core';
import { startXvfb } from './xvfb.mjs';

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
  // No GPU here: let WebGL run on Mesa's software rasteriser (llvmpipe), as Chromium's runs on SwiftShader.
  'webgl.force-enabled': true,
};

/**
 * Launches Firefox ESR with a fresh profile. `prefs` override FIREFOX_MEDIA_PREFS (for example
 * `{ 'media.autoplay.default': 1 }` to block audible autoplay as a visitor's browser may). `xvfb: true` runs it
 * with a window in a private Xvfb display instead of headless: headless Firefox has no WebGL at all
 * (FEATURE_FAILURE_WEBGL_EXHAUSTED_DRIVERS), a windowed one draws it with Mesa. Closing the browser ends the display.
 * @param {{ prefs?: Record<string, unknown>, xvfb?: boolean }} [options]
 * @returns {Promise<import('puppeteer-core').Browser>}
 */
export async function launchFirefox({ prefs = {}, xvfb = false } = {}) {
  const display = xvfb ? await startXvfb() : null;
  try {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: !display,
      extraPrefsFirefox: { ...FIREFOX_MEDIA_PREFS, ...prefs },
      defaultViewport: { width: 900, height: 820 },
      ...(display ? { env: { ...process.env, DISPLAY: display.display } } : {}),
    });
    if (display) browser.once('disconnected', display.close);
    return browser;
  } catch (e) {
    display?.close();
    throw e;
  }
}
