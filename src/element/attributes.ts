import type { AvatarWidgetProps, WidgetState } from '../components';

/**
 * Attributes `<liveai-avatar>` reads; changing one re-renders (a new `agent-id` / `proxy-url` means a new session):
 * `agent-id`, `proxy-url`, `inline` (boolean), `initial-state` (minimized|active|hidden), `theme` (light|dark|auto),
 * `avatar-title`, `image-url` (poster), `max-duration-ms`.
 */
export const OBSERVED_ATTRIBUTES = ['agent-id', 'proxy-url', 'inline', 'initial-state', 'theme', 'avatar-title', 'image-url', 'max-duration-ms'] as const;

const STATES = ['minimized', 'active', 'hidden'];
const THEMES = ['light', 'dark', 'auto'];

/** The widget props an element's attributes describe; invalid enum values fall back to the defaults. */
export function propsFromAttributes(el: Element): AvatarWidgetProps {
  const attr = (name: string, allowed?: string[]) => {
    const v = el.getAttribute(name);
    return v !== null && (!allowed || allowed.includes(v)) ? v : undefined;
  };
  const inline = el.hasAttribute('inline');
  const max = Number(attr('max-duration-ms'));
  return {
    proxyUrl: attr('proxy-url'),
    agentId: attr('agent-id'),
    variant: inline ? 'inline' : 'floating',
    theme: attr('theme', THEMES) as AvatarWidgetProps['theme'],
    title: attr('avatar-title'),
    imageUrl: attr('image-url'),
    maxDurationMs: max > 0 ? max : undefined,
    initialState: attr('initial-state', STATES) as WidgetState | undefined,
  };
}
