/**
 * liveai-kit/components: styled components. Each is a pure `XView` (props only)
 * plus a connected `X` that reads the hooks of `liveai-kit/react`. Styles ship separately as
 * `liveai-kit/styles.css` (JS never imports CSS). Safe to import during server rendering.
 *
 * @module liveai-kit/components
 */
export { AvatarStageView, type AvatarStageViewProps, type StageOverlayProps } from './stage/AvatarStage';
export { QueueProgressView, type QueueProgressViewProps } from './controls/QueueProgress';
export { TranscriptPanelView, type TranscriptPanelViewProps } from './transcript/TranscriptPanel';
export { ChatInputView, type ChatInputViewProps } from './controls/ChatInput';
export { ControlBarView, type ControlBarViewProps } from './controls/ControlBar';
export { ImageSwapperView, type ImageSwapperViewProps } from './images/ImageSwapper';
export { SessionListView, type SessionListViewProps } from './sessions/SessionList';
export type { SessionListRow } from './sessions/SessionList';
export { AvatarWidgetView, type AvatarWidgetViewProps, type WidgetState } from './widget/AvatarWidgetView';
export { explainError, formatClock, formatCredits, type ErrorLike } from './format';
export { AvatarStage, type AvatarStageProps } from './stage/AvatarStage';
export { QueueProgress } from './controls/QueueProgress';
export { TranscriptPanel, type TranscriptPanelProps } from './transcript/TranscriptPanel';
export { ChatInput, type ChatInputProps } from './controls/ChatInput';
export { ControlBar, type ControlBarProps } from './controls/ControlBar';
export { ImageSwapper, type ImageSwapperProps } from './images/ImageSwapper';
export { SessionList, type SessionListProps } from './sessions/SessionList';
export {
  UsageView,
  Usage,
  type UsageViewProps,
  type UsageProps,
  type UsageData,
  type UsageDay,
  type UsageEnded,
  type UsageTotals,
  type UsageLabels,
} from './admin/UsageView';
export { AvatarWidget, type AvatarWidgetProps } from './widget/AvatarWidget';
export type { WidgetCallbacks, WidgetEndInfo } from './widget/AvatarWidget';
export type { PrepareImage } from './images/useImagePick';
export type { ChromaKeyOptions } from './stage/chroma-key';
export { BarVisualizerView, type BarVisualizerViewProps } from './visualizer/BarVisualizer';
export { BarVisualizer, type BarVisualizerProps } from './visualizer/BarVisualizer';
export { ConnectionQualityView, type ConnectionQualityViewProps, type ConnectionQualityLevel } from './quality/ConnectionQuality';
export { ConnectionQuality } from './quality/ConnectionQuality';
export { callQuality, type CallQuality } from './quality/ConnectionQuality';
export { AvatarVideo, type AvatarVideoProps } from './primitives/AvatarVideo';
export { DeviceSelectView, type DeviceSelectViewProps, type AudioDeviceKind } from './devices/DeviceSelect';
export { DeviceSelect, type DeviceSelectProps } from './devices/DeviceSelect';
export { PreJoinView, type PreJoinViewProps, type PreJoinStatus } from './devices/PreJoin';
export { AvatarAudio, type AvatarAudioProps } from './primitives/AvatarAudio';
export { StopSpeakingButton, type StopSpeakingButtonProps } from './primitives/StopSpeakingButton';
export { MessagesProvider, type MessagesProviderProps } from './i18n/context';
export { useMessages } from './i18n/use-messages';
export { describeConnection, en, resolveMessages } from './i18n/en';
export type { MessageGroupKey, Messages, MessagesOverride, PluralCategory } from './i18n/messages';
// The core's and the hooks' types the components take, so an app imports them from where it meets them.
export type * from '../core/entry-types';
export type { AudioLevelSource, UseSessionListOptions } from '../react';
