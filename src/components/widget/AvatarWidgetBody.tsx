import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/useSessionState';
import { AvatarStage } from '../stage/AvatarStage';
import { chromaKeyId } from '../stage/AvatarStageView';
import type { AvatarWidgetProps } from './AvatarWidget';
import { AvatarWidgetView, type WidgetState } from './AvatarWidgetView';
import { ChatInput } from '../controls/ChatInput';
import { ControlBar } from '../controls/ControlBar';
import { ImageSwapper } from '../images/ImageSwapper';
import { LookSheet } from './LookSheet';
import { TranscriptPanel } from '../transcript/TranscriptPanel';
import { useDeadline } from '../stage/useDeadline';
import { useWidgetCallbacks } from './useWidgetCallbacks';
import { isRunning } from '../../core/index';
import type { ChromaKeyOptions } from '../stage/chroma-key';
import { useMessages } from '../i18n/context';
import { ConnectionHint } from './ConnectionHint';

/** The pre-join step downloads only when a widget with `preJoin` shows it. */
const PreJoin = lazy(() => import('../devices/PreJoin').then((m) => ({ default: m.PreJoin })));

/** Inside the provider: state, timers (minimized end, max duration), callbacks, and the composed parts. */
export function AvatarWidgetBody(p: AvatarWidgetProps) {
  const session = useAvatarSession();
  // Only what the frame shows: the room's progress during connect does not re-render the whole widget.
  const phase = useSessionState((s) => s.phase);
  const activeAt = useSessionState((s) => s.activeAt);
  const variant = p.variant ?? 'floating';
  const m = useMessages();
  const title = p.title ?? m.avatar;
  const [own, setOwn] = useState<WidgetState>(p.initialState ?? (variant === 'inline' ? 'active' : 'minimized'));
  const state = p.state ?? own;
  const setState = (next: WidgetState) => {
    setOwn(next);
    p.onStateChange?.(next);
  };
  useWidgetCallbacks(session, p);
  const { onSession } = p;
  useEffect(() => onSession?.(session), [session, onSession]);

  // Minimized with `minimizeKeepsCall`, the call goes on; hidden (nothing on screen) always counts as away.
  const away = (p.minimizeKeepsCall ? state === 'hidden' : state !== 'active') && isRunning(phase);
  const [awaySince, setAwaySince] = useState<number | null>(null);
  useEffect(() => setAwaySince(away ? Date.now() : null), [away]);
  const endCall = () => void session.end('user').catch(() => undefined);
  const minimizedEndMs = useDeadline(awaySince === null ? null : awaySince + (p.minimizedEndMs ?? 30_000), endCall);
  const maxDeadline = phase === 'active' && activeAt !== null && p.maxDurationMs ? activeAt + p.maxDurationMs : null;
  const remainingMs = useDeadline(maxDeadline, endCall, 30_000);

  // The pre-join step stands in for the stage (and its Start) until the visitor joins the first call.
  const [joined, setJoined] = useState(false);
  const preJoin = !!p.preJoin && !joined && phase === 'idle';
  const join = () => {
    setJoined(true);
    void session.start().catch(() => undefined); // the error shows from the store
  };
  const hint = p.showConnectionHint !== false && isRunning(phase) ? <ConnectionHint /> : undefined;

  const caption = (p.transcriptMode ?? (variant === 'inline' ? 'conversation' : 'caption')) === 'caption';
  // The parts read the session themselves, so they are made once per change of their own props: a phase change
  // (several while a call connects) re-renders the frame only, not the stage, transcript, chat and controls again.
  const { imageUrl, imageSwapper, previewSrc } = p;
  const showCost = p.showCost ?? true;
  const stageLabel = m.videoOf(title);
  // One key per set of options, so an inline `chromaKey={{…}}` does not re-make the parts on every render.
  const chromaKey = chromaKeyId(p.chromaKey);
  const parts = useMemo(
    () => ({
      stage: (
        <AvatarStage
          imageUrl={imageUrl}
          previewSrc={previewSrc}
          name={title}
          label={stageLabel}
          showCost={showCost}
          chromaKey={chromaKey ? (JSON.parse(chromaKey) as ChromaKeyOptions) : undefined}
        >
          {caption && <TranscriptPanel mode="caption" agentLabel={title} />}
        </AvatarStage>
      ),
      transcript: caption ? undefined : <TranscriptPanel agentLabel={title} />,
      extra: imageSwapper ? (
        <LookSheet>
          <ImageSwapper />
        </LookSheet>
      ) : undefined,
      chat: <ChatInput />,
      controls: <ControlBar />,
    }),
    [imageUrl, previewSrc, title, stageLabel, showCost, caption, imageSwapper, chromaKey],
  );
  return (
    <AvatarWidgetView
      variant={variant}
      state={state}
      onStateChange={setState}
      onPrefetch={session.prefetch}
      theme={p.theme ?? 'auto'}
      phase={phase}
      title={title}
      className={p.className}
      remainingMs={remainingMs}
      minimizedEndMs={minimizedEndMs}
      minimizeEndsCallAfterMs={p.minimizeKeepsCall ? null : (p.minimizedEndMs ?? 30_000)}
      stage={
        preJoin ? (
          <Suspense fallback={<div className="liveai-prejoin" />}>
            <PreJoin onJoin={join} />
          </Suspense>
        ) : (
          parts.stage
        )
      }
      hint={hint}
      transcript={parts.transcript}
      extra={parts.extra}
      chat={parts.chat}
      controls={parts.controls}
    />
  );
}
