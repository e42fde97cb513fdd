import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { TranscriptLine } from '../../core/index';
import { cx } from '../format';
import { useMessages } from '../i18n/use-messages';
import { useTranscript } from '../../react';

/** A layout effect in the browser, a plain effect during server rendering (where React warns about the former). */
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/** Distance from the bottom, px, under which the list counts as "at the bottom". */
const SLACK_PX = 24;

/**
 * Auto-scroll for a growing list that respects the user: it follows new content only while the
 * user is at the bottom; after they scroll up it stops and reports `unseen` until they come back
 * or call `jump()`. `key` changes whenever content is appended (e.g. the last line's id).
 */
export function useStickToBottom<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  const stuck = useRef(true);
  const [unseen, setUnseen] = useState(false);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight <= SLACK_PX;
    if (stuck.current) setUnseen(false);
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el || key === undefined) return;
    if (stuck.current) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [key]);

  const jump = useCallback(() => {
    const el = ref.current;
    stuck.current = true;
    setUnseen(false);
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  return { ref, onScroll, unseen, jump };
}

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
  // A caption longer than its box keeps its newest words; `data-rolled` says its start rolled away (a fade shows it).
  const line = useRef<HTMLParagraphElement>(null);
  const [rolled, setRolled] = useState(false);
  // A caption shows what the avatar has said of its line so far (`spoken`, whole words); a screen reader gets the
  // whole line once, from a hidden copy, not word by word.
  const shown = mode === 'caption' ? (last?.spoken ?? last?.text) : undefined;
  useBeforePaint(() => {
    const el = line.current;
    const text = el?.lastElementChild;
    // The words overflow at the top (the box keeps its end), where scrollHeight does not count them.
    setRolled(!!el && !!text && text.getBoundingClientRect().top < el.getBoundingClientRect().top - 1);
  }, [shown]);
  if (mode === 'caption') {
    return (
      <div className={cx('liveai-captions', className)} role="status" aria-live="polite" aria-label={label} data-mode="caption">
        {last && (
          <>
            <p className="liveai-visually-hidden" key={`said-${last.id}`}>
              {who(last)}: <bdi dir="auto">{last.text}</bdi>
            </p>
            <p
              className="liveai-captions__line"
              data-role={last.role}
              key={last.id}
              ref={line}
              data-rolled={rolled || undefined}
              data-speaking={last.spoken !== undefined || undefined}
              aria-hidden="true"
            >
              <bdi dir="auto">{shown}</bdi>
            </p>
          </>
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

/**
 * Props of {@link TranscriptPanel}.
 * @public
 */
export interface TranscriptPanelProps extends Omit<TranscriptPanelViewProps, 'lines'> {
  /** Show at most the newest N lines. */
  limit?: number;
  /**
   * Lines as the avatar says them (`useTranscript({ paced: true })`): an agent line shows once the avatar starts it,
   * word by word with its voice. Default: on in caption mode, off in conversation mode (a log shows whole lines).
   */
  paced?: boolean;
}

/**
 * The transcript of the nearest session (re-renders only when a line arrives).
 * @public
 */
export function TranscriptPanel({ limit, paced, ...props }: TranscriptPanelProps) {
  const lines = useTranscript({ ...(limit === undefined ? {} : { limit }), paced: paced ?? props.mode === 'caption' });
  return <TranscriptPanelView lines={lines} {...props} />;
}
