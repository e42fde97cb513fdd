/**
 * liveai-kit/element: the `<liveai-avatar>` custom element for pages without React.
 * Importing it registers the element in a browser (guarded: registering twice is a no-op); in Node the
 * import does nothing and never touches `window` or `HTMLElement`.
 *
 * ```html
 * <liveai-avatar agent-id="agent-123" proxy-url="/api/avatar"></liveai-avatar>
 * ```
 *
 * @module liveai-kit/element
 */
import { createLiveAiAvatarClass } from './element-class';

export { type LiveAiAvatarElement, type LiveAiAvatarEventMap, type LiveAiErrorDetail } from './element-class';
/** The types the element's properties, methods and events use, so a page needs no other entry to name them. */
export type {
  AppMessage,
  AvatarEvent,
  AvatarSessionOptions,
  CallStats,
  ClientSession,
  ConnectionState,
  ConnectOptions,
  EndReason,
  ErrorCode,
  ErrorSource,
  ImageChangeState,
  ImageInput,
  LiveAiError,
  LiveAiErrorOptions,
  MediaTransport,
  Phase,
  ProxySessionRequest,
  SessionFlow,
  SessionMetric,
  TranscriptLine,
  Transport,
  TransportEventMap,
  TransportEventName,
  TransportFactory,
  TransportLoader,
  TransportModule,
  TransportRegistry,
} from '../core/index';
export type { MessageGroupKey, Messages, MessagesOverride, PluralCategory, WidgetEndInfo, WidgetState } from '../components';

/**
 * Registers `<liveai-avatar>` (or `tagName`) once. Returns true when this call defined it; false in Node,
 * without custom elements, or when the name is already taken.
 * @public
 */
export function defineLiveAiAvatar(tagName = 'liveai-avatar'): boolean {
  if (typeof window === 'undefined' || typeof customElements === 'undefined' || customElements.get(tagName)) return false;
  customElements.define(tagName, createLiveAiAvatarClass());
  return true;
}

defineLiveAiAvatar();
