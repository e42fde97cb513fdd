/**
 * liveai-kit/widget: the drop-in widget alone. `AvatarWidget` is also exported by `liveai-kit/components`; importing
 * it from here keeps the components the widget loads on demand (the call's controls, the pre-join step, "Change
 * look") out of the page's first download with every bundler, including those that cannot drop what an entry
 * re-exports without using (esbuild with code splitting). Styles: `liveai-kit/styles/base.css` and
 * `liveai-kit/styles/widget.css` (or `liveai-kit/styles.css`).
 *
 * @module liveai-kit/widget
 */
export { AvatarWidget, type AvatarWidgetProps, type WidgetCallbacks, type WidgetEndInfo } from './widget/AvatarWidget';
export type { WidgetState } from './widget/AvatarWidgetView';
export type { ChromaKeyOptions } from './stage/chroma-key';
export type { MessageGroupKey, Messages, MessagesOverride, PluralCategory } from './i18n/messages';
// The core's types the widget takes (its session, options, errors, callbacks' arguments), where users meet them.
export type * from '../core/entry-types';
