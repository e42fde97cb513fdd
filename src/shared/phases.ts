/**
 * The client phases of a started session that has not ended yet, in order. One list for the engine, the hooks
 * and the components: a session in one of these phases holds credits and can be ended.
 * @public
 */
export const RUNNING_PHASES = ['creating', 'queued', 'connecting', 'active'] as const;
/**
 * One of the running phases: `'creating' | 'queued' | 'connecting' | 'active'`. `isRunning(phase)` narrows a
 * session's phase to this type.
 * @public
 */
export type RunningPhase = (typeof RUNNING_PHASES)[number];

/** The running phases before the avatar is live: the queue clock and progress bar show in these. */
export const WAITING_PHASES = ['creating', 'queued', 'connecting'] as const;
export type WaitingPhase = (typeof WAITING_PHASES)[number];

/**
 * True for `creating`, `queued`, `connecting` and `active`.
 * @public
 */
export const isRunning = (phase: string): phase is RunningPhase => (RUNNING_PHASES as readonly string[]).includes(phase);

/** True for `creating`, `queued` and `connecting`. */
export const isWaiting = (phase: string): phase is WaitingPhase => (WAITING_PHASES as readonly string[]).includes(phase);
