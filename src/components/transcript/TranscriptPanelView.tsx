import type { TranscriptLine } from '../../core/index';
import { useStickToBottom } from './useStickToBottom';
import { cx } from '../format';
import { useMessages } from '../i18n/context';

/**
 * Props of {@link TranscriptPanelView}.
 * @public
 */
export interface TranscriptPanelViewProps {
  lines: readonly TranscriptLine[];
  /** `conversation`: scrollable chat log; `caption`: the latest line only, as an overlay. Default conversation. */
  mode?: 'conversation' | 'caption';
  userLabel?: string;
  agentLabel?: string;
  /** Shown in conversation mode while there are no lines. */
  emptyText?: string;
  /** Accessible name of the log. */
  label?: string;
  className?: string;
}

/**
 * Transcript of the call (`user_transcription` / `agent_transcription`), announced politely
 * to screen readers. Conversation mode follows new lines unless the user scrolled up, then offers
 * "Jump to latest". Pure view.
 * @public
 */
export function TranscriptPanelView(props: TranscriptPanelViewProps) {
  const m = useMessages();
  const { lines, mode = 'conversation', userLabel = m.you, agentLabel = m.avatar, label = m.transcript, className } = props;
  const last = lines[lines.length - 1];
  const scroll = useStickToBottom<HTMLDivElement>(last?.id);
  const who = (l: TranscriptLine) => (l.role === 'user' ? userLabel : agentLabel);
  if (mode === 'caption') {
    return (
      <div className={cx('liveai-captions', className)} role="status" aria-live="polite" aria-label={label} data-mode="caption">
        {last && (
          <p className="liveai-captions__line" data-role={last.role} key={last.id}>
            <span className="liveai-visually-hidden">{who(last)}: </span>
            <bdi>{last.text}</bdi>
          </p>
        )}
      </div>
    );
  }
  return (
    <div className={cx('liveai-transcript', className)} data-mode="conversation">
      <div
        ref={scroll.ref}
        onScroll={scroll.onScroll}
        className="liveai-transcript__log"
        role="log"
        aria-live="polite"
        aria-label={label}
        tabIndex={0}
      >
        {lines.length === 0 && <p className="liveai-transcript__empty">{props.emptyText ?? m.transcriptEmpty}</p>}
        <ol className="liveai-transcript__list">
          {lines.map((l) => (
            <li key={l.id} className="liveai-transcript__line" data-role={l.role}>
              <span className="liveai-transcript__who">{who(l)}</span>
              {/* What was said may be in another language than the widget's: its own direction. */}
              <span className="liveai-transcript__text" dir="auto">
                {l.text}
              </span>
            </li>
          ))}
        </ol>
      </div>
      {scroll.unseen && (
        <button type="button" className="liveai-button liveai-transcript__jump" onClick={scroll.jump}>
          {m.jumpToLatest}
        </button>
      )}
    </div>
  );
}
