import { StopSpeakingButton } from '../primitives/StopSpeakingButton';
import { Icon } from '../controls/icons';
import { useMessages } from '../i18n/use-messages';

/**
 * "Stop talking" in the widget: while the avatar speaks, a button at the top of the picture, across from the
 * "Speaking" label, that interrupts its reply (`session.interrupt()`); gone otherwise. It floats over the video, so
 * its coming and going moves nothing.
 */
export function StopTalking() {
  const m = useMessages();
  return (
    <StopSpeakingButton className="liveai-dock__button liveai-stage__stop">
      <Icon name="stop" />
      <span>{m.stopSpeaking}</span>
    </StopSpeakingButton>
  );
}
