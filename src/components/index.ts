/**
 * liveai-kit/components: styled components. Each is a pure `XView` (props only)
 * plus a connected `X` that reads the hooks of `liveai-kit/react`. Styles ship separately as
 * `liveai-kit/styles.css` (JS never imports CSS). Safe to import during server rendering.
 *
 * @module liveai-kit/components
 */
export { AvatarStageView, type AvatarStageViewProps } from './AvatarStageView';
export { QueueProgressView, type QueueProgressViewProps } from './QueueProgressView';
export { TranscriptPanelView, type TranscriptPanelViewProps } from './TranscriptPanelView';
export { ChatInputView, type ChatInputViewProps } from './ChatInputView';
export { ControlBarView, type ControlBarViewProps } from './ControlBarView';
export { ImageSwapperView, type ImageSwapperViewProps } from './ImageSwapperView';
export { SessionListView, type SessionListViewProps } from './SessionListView';
export type { SessionListRow } from './SessionTable';
export { AvatarWidgetView, type AvatarWidgetViewProps, type WidgetState } from './AvatarWidgetView';
export { explainError, formatClock, formatCredits, type ErrorLike } from './format';
export { AvatarStage, type AvatarStageProps } from './AvatarStage';
export { QueueProgress } from './QueueProgress';
export { TranscriptPanel, type TranscriptPanelProps } from './TranscriptPanel';
export { ChatInput, type ChatInputProps } from './ChatInput';
export { ControlBar, type ControlBarProps } from './ControlBar';
export { ImageSwapper, type ImageSwapperProps } from './ImageSwapper';
export { SessionList, type SessionListProps } from './SessionList';
export { AvatarWidget, type AvatarWidgetProps } from './AvatarWidget';
export type { WidgetCallbacks, WidgetEndInfo } from './useWidgetCallbacks';
export type { PrepareImage } from './useImagePick';
export type { ChromaKeyOptions } from './chroma-key';
