import type { ReactNode } from 'react';
import { useMedia } from '../../react';
import { useMessages } from '../i18n/use-messages';
import { AudioUnlockButton } from './AudioUnlockButton';

/**
 * Props of {@link AvatarAudio}.
 * @public
 */
export interface AvatarAudioProps {
  /** Content of the unlock button (default: the catalogue's `hearAvatar`, "Tap to hear the avatar"). */
  children?: ReactNode;
  className?: string;
}

/**
 * The avatar's audio. The session already plays it through its own audio element (so speaker mute, volume and the
 * output device apply on every transport, and it never plays twice); what a page must add is the way out when the
 * browser blocks sound without a user gesture. `AvatarAudio` renders nothing while the audio plays, and a button
 * while it is blocked: its click calls `unblockAudio()` inside the gesture. Unstyled.
 * @public
 */
export function AvatarAudio({ children, className }: AvatarAudioProps) {
  const { audioBlocked, audioTrack, unblockAudio } = useMedia();
  const m = useMessages();
  return (
    <AudioUnlockButton blocked={audioBlocked && !!audioTrack} onUnblock={() => void unblockAudio().catch(() => {})} className={className}>
      {children ?? m.hearAvatar}
    </AudioUnlockButton>
  );
}
