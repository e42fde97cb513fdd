import type { ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { DeviceSelect } from '../devices/DeviceSelect';
import { Icon, type IconName } from '../controls/icons';
import { useMessages } from '../i18n/use-messages';

/** A row that is on or off: its word always says the same thing, a check mark says it is on. */
function MenuToggle(p: { label: string; hint?: string; icon: IconName; on: boolean; control: string; onChange: (on: boolean) => void }) {
  return (
    <button
      type="button"
      className="liveai-menu__item"
      aria-pressed={p.on}
      data-control={p.control}
      data-state={p.on ? 'on' : 'off'}
      title={p.hint}
      onClick={() => p.onChange(!p.on)}
    >
      <Icon name={p.icon} />
      <span className="liveai-menu__label">{p.label}</span>
      <span className="liveai-menu__check">{p.on && <Icon name="check" />}</span>
    </button>
  );
}

function Row({ children }: { children: ReactNode }) {
  return <div className="liveai-menu__row">{children}</div>;
}

/**
 * The less used call controls, in the widget's "More options" panel: mute the speaker and its volume, the microphone
 * and speaker in use, "Stay connected" (the session's keep-alive) and "Change look". Loaded on first open.
 */
export function CallMenu({ onChangeLook }: { onChangeLook?: (() => void) | undefined }) {
  const session = useAvatarSession();
  const m = useMessages();
  const s = useSessionState(useShallow((st) => ({ muted: st.media.speakerMuted, volume: st.media.volume, keepAlive: st.keepAlive })));
  return (
    <>
      <MenuToggle
        label={m.muteSpeaker}
        icon={s.muted ? 'speakerOff' : 'speaker'}
        on={s.muted}
        control="speaker"
        onChange={session.setSpeakerMuted}
      />
      <Row>
        <input
          type="range"
          className="liveai-menu__volume"
          aria-label={m.volume}
          min={0}
          max={1}
          step={0.05}
          value={s.muted ? 0 : s.volume}
          onChange={(e) => session.setVolume(Number(e.target.value))}
        />
      </Row>
      <Row>
        <DeviceSelect kind="audioinput" className="liveai-menu__device" />
        <DeviceSelect kind="audiooutput" className="liveai-menu__device" />
      </Row>
      <MenuToggle
        label={m.stayConnected}
        hint={m.stayConnectedHint}
        icon="keepAlive"
        on={s.keepAlive}
        control="keep-alive"
        onChange={session.setKeepAlive}
      />
      {onChangeLook && (
        <button type="button" className="liveai-menu__item" data-control="change-look" onClick={onChangeLook}>
          <Icon name="image" />
          <span className="liveai-menu__label">{m.changeLook}</span>
        </button>
      )}
    </>
  );
}
