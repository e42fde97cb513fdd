// The PCM format of the websocket-* transports. Kept apart from the conversion code (pcm.ts), which loads only
// when a stream starts, so that the root entry can export these numbers without it.

/**
 * Sample rate the websocket-* transports take, in Hz (PCM16 mono 16 kHz).
 * @public
 */
export const PCM_SAMPLE_RATE = 16_000;
/**
 * Duration of one binary frame, in ms.
 * @public
 */
export const PCM_FRAME_MS = 20;
/**
 * Samples per frame at 16 kHz (320) and bytes per frame as PCM16 (640).
 * @public
 */
export const PCM_FRAME_SAMPLES = (PCM_SAMPLE_RATE * PCM_FRAME_MS) / 1000;
/** @public */
export const PCM_FRAME_BYTES = PCM_FRAME_SAMPLES * 2;
