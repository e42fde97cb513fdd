import { useTranscript } from '../../react';
import { TranscriptPanelView, type TranscriptPanelViewProps } from './TranscriptPanelView';

/**
 * Props of {@link TranscriptPanel}.
 * @public
 */
export interface TranscriptPanelProps extends Omit<TranscriptPanelViewProps, 'lines'> {
  /** Show at most the newest N lines. */
  limit?: number;
}

/**
 * The transcript of the nearest session (re-renders only when a line arrives).
 * @public
 */
export function TranscriptPanel({ limit, ...props }: TranscriptPanelProps) {
  const lines = useTranscript(limit === undefined ? {} : { limit });
  return <TranscriptPanelView lines={lines} {...props} />;
}
