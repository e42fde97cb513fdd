// Clock skew for one soak process: `node --import ./scripts/soak/skew.mjs …` shifts what this process reads as the
// time (`Date.now()`, `new Date()`) by an offset in ms, as a VM whose clock drifted would: LIVEAI_SOAK_SKEW_MS=<ms>
// at start, and an IPC message `{skewMs}` from the parent changes it at any time (a clock stepped by NTP). Timers and
// `performance.now()` are not touched. The soak shifts one proxy instance's clock this way while both share one
// Redis, so the two instances disagree about the time.
let offset = Number(process.env.LIVEAI_SOAK_SKEW_MS ?? 0) || 0;
if (typeof process.send === 'function') {
  process.on('message', (m) => {
    if (m && typeof m === 'object' && typeof m.skewMs === 'number') offset = m.skewMs;
  });
}
{
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset);
      else super(...args);
    }
    static now() {
      return realNow() + offset;
    }
  }
  globalThis.Date = SkewedDate;
}
