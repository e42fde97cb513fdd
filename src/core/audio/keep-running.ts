/**
 * Keeps a Web Audio context running through what suspends it behind the page's back: an interrupted audio session
 * (a phone call, Siri, another app taking the audio on iOS: state `interrupted`, or `suspended` in older Safari), a
 * page sent to the background, an output device that went away. Whenever the context leaves `running` it is resumed
 * at once if the page is visible, else as soon as the page is shown again, and again after every device change.
 * A resume the browser refuses (no gesture yet) is retried on those same signals; nothing is ever thrown.
 * Returns the stop function (it removes every listener; it does not close the context).
 * @internal
 */
export function keepAudioContextRunning(ctx: BaseAudioContext & { resume(): Promise<void> }): () => void {
  const doc = typeof document === 'undefined' ? undefined : document;
  const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  let stopped = false;
  const resume = () => {
    if (stopped || (ctx.state as string) === 'running' || ctx.state === 'closed' || doc?.visibilityState === 'hidden') return;
    void ctx.resume().catch(() => {});
  };
  const onVisibility = () => {
    if (doc?.visibilityState !== 'hidden') resume();
  };
  ctx.addEventListener('statechange', resume);
  doc?.addEventListener('visibilitychange', onVisibility);
  devices?.addEventListener?.('devicechange', resume);
  return () => {
    stopped = true;
    ctx.removeEventListener('statechange', resume);
    doc?.removeEventListener('visibilitychange', onVisibility);
    devices?.removeEventListener?.('devicechange', resume);
  };
}
