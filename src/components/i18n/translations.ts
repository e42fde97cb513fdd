/**
 * liveai-kit/messages: translations of the components' message catalogue, one named export per language, so an
 * app's bundler keeps only the one it imports (English is built into the components). Pass one to
 * `<AvatarWidget messages={es} />`, `<MessagesProvider messages={fr}>` or the `messages` property of `<liveai-avatar>`.
 *
 * @module liveai-kit/messages
 */
export { es } from './es';
export { fr } from './fr';
export { de } from './de';
export { ja } from './ja';
export { ar } from './ar';
export type { MessageGroupKey, Messages, MessagesOverride, PluralCategory } from './messages';
