// @livekit/rtc-node prints its debug lines (JSON on stdout, `"level":20`) unless NODE_ENV is `production` when it first
// loads, and exports no logger to quiet it. The local service loads it that way; the tests' own Node viewers import it
// directly, so it is loaded here once, quietly, before a test file does (Node caches the module for the process).
// LIVEAI_RTC_DEBUG=1 keeps the lines, as it does for the local service.
if (process.env.LIVEAI_RTC_DEBUG !== '1') {
  const had = Object.prototype.hasOwnProperty.call(process.env, 'NODE_ENV');
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await import('@livekit/rtc-node');
  } catch {
    // Not installed: the tests that need it say so themselves.
  } finally {
    if (had) process.env.NODE_ENV = before;
    else delete process.env.NODE_ENV;
  }
}

export {};
