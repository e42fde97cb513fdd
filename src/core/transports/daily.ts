/**
 * liveai-kit/daily: the Daily transport (`rtc-b` rooms, `https://` room URLs), on `@daily-co/daily-js`.
 * Importing this entry registers it, so every session on the page can join Daily rooms:
 *
 * ```ts
 * import 'liveai-kit/daily'; // npm i @daily-co/daily-js
 * ```
 *
 * The adapter and daily-js load with `import()` when the first Daily room is joined, not with the page.
 *
 * @module liveai-kit/daily
 */
import { registerTransport, type TransportModule } from './choose';

// The types of this entry's transport object (`registerTransport` takes it; its `load` gives the adapter).
export type * from './entry-types';

/**
 * The Daily (`rtc-b`) transport; registered on import. Pass it to `registerTransport` again after a reset.
 * @public
 */
export const dailyTransport: TransportModule = {
  kind: 'rtc-b',
  load: () => import('./daily/adapter').then((m) => () => m.createDailyTransport()),
};

registerTransport(dailyTransport);
