import type { AvatarWidgetProps, WidgetState } from '../components';
import { HEX_COLOR } from '../components/stage/AvatarStage';

/**
 * Attributes `<liveai-avatar>` reads; changing one re-renders (a new `agent-id` / `proxy-url` means a new session):
 * `agent-id`, `proxy-url`, `inline` (boolean), `initial-state` (minimized|active|hidden), `theme` (light|dark|auto),
 * `avatar-title`, `image-url` (the agent's picture, the poster), `preview-src` (a short looping preview video before
 * the call), `max-duration-ms` (positive integer), `minimize-keeps-call` (boolean), `image-swapper` (boolean),
 * `transport` (rtc-a|rtc-b: the kind of room the proxy hands out, so its SDK is fetched before Start is clicked),
 * `chroma-key` (makes the avatar's backdrop transparent: empty for green, or the backdrop colour as `#rrggbb`),
 * `show-cost` (`true` shows the cost in credits on the ended screen), `lang` (the language of every string a visitor
 * sees: `en`, `es`, `fr`, `de`, `ja`, `ar`; another language falls back to English) and `dir` (`rtl` lays the widget
 * out right to left; Arabic does by itself), `pre-join` (boolean: a microphone check with a level meter and the
 * microphone and speaker selects before the first call), `show-connection-hint` (`false` hides "Your connection is
 * unstable", shown while the call's quality stays poor) and `microphone` (`false` makes a text-only widget: no
 * microphone is asked for, the chat shows from the start; default `true`: the microphone opens with the call).
 * @public
 */
export const OBSERVED_ATTRIBUTES = [
  'agent-id',
  'proxy-url',
  'inline',
  'initial-state',
  'theme',
  'avatar-title',
  'image-url',
  'preview-src',
  'max-duration-ms',
  'minimize-keeps-call',
  'image-swapper',
  'transport',
  'chroma-key',
  'show-cost',
  'pre-join',
  'show-connection-hint',
  'microphone',
  'lang',
  'dir',
] as const;

const ENUMS: Record<string, readonly string[]> = {
  'initial-state': ['minimized', 'active', 'hidden'],
  theme: ['light', 'dark', 'auto'],
  transport: ['rtc-a', 'rtc-b'],
  'show-cost': ['true', 'false'],
  'show-connection-hint': ['true', 'false'],
  microphone: ['true', 'false'],
};

/**
 * What is wrong with one attribute's value, or null when it is fine (absent counts as fine).
 * Example: `theme="purple"` → `theme="purple" is not one of light, dark, auto; using the default`.
 */
export function attributeProblem(name: string, value: string | null): string | null {
  if (value === null) return null;
  const allowed = ENUMS[name];
  if (allowed && !allowed.includes(value)) return `${name}="${value}" is not one of ${allowed.join(', ')}; using the default`;
  if (name === 'max-duration-ms' && !/^\d+$/.test(value.trim()))
    return `max-duration-ms="${value}" is not a positive whole number of milliseconds; no limit applies`;
  if ((name === 'agent-id' || name === 'proxy-url') && value.trim() === '') return `${name} is empty; the element cannot start a call`;
  if (name === 'chroma-key' && value.trim() !== '' && !HEX_COLOR.test(value.trim()))
    return `chroma-key="${value}" is not a colour like #00ff00; keying green`;
  return null;
}

/** The widget props an element's attributes describe; invalid values fall back to the defaults (see {@link attributeProblem}). */
export function propsFromAttributes(el: Element): AvatarWidgetProps {
  const attr = (name: string) => {
    const v = el.getAttribute(name);
    return v !== null && attributeProblem(name, v) === null ? v : undefined;
  };
  const max = Number(attr('max-duration-ms'));
  return {
    proxyUrl: attr('proxy-url'),
    agentId: attr('agent-id'),
    variant: el.hasAttribute('inline') ? 'inline' : 'floating',
    theme: attr('theme') as AvatarWidgetProps['theme'],
    title: attr('avatar-title'),
    imageUrl: attr('image-url'),
    previewSrc: attr('preview-src'),
    maxDurationMs: max > 0 ? max : undefined,
    initialState: attr('initial-state') as WidgetState | undefined,
    imageSwapper: el.hasAttribute('image-swapper'),
    minimizeKeepsCall: el.hasAttribute('minimize-keeps-call'),
    options: attr('transport') ? { transport: attr('transport') as 'rtc-a' | 'rtc-b' } : undefined,
    showCost: attr('show-cost') === 'true',
    preJoin: el.hasAttribute('pre-join'),
    showConnectionHint: attr('show-connection-hint') !== 'false',
    microphone: attr('microphone') !== 'false',
    chromaKey: el.hasAttribute('chroma-key') ? (attr('chroma-key')?.trim() ? { color: attr('chroma-key')!.trim() } : true) : undefined,
  };
}
