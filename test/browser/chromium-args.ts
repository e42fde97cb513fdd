/** The Chromium flags of every browser test (one list for tests, benches and screenshots). */
export { CHROMIUM_ARGS } from '../../scripts/chromium.mjs';
