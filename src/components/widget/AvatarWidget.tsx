import type { AvatarSession, AvatarSessionOptions } from '../../core/index';
import { AvatarSessionProvider } from '../../react';
import { AvatarWidgetBody } from './AvatarWidgetBody';
import type { WidgetState } from './AvatarWidgetView';
import type { WidgetCallbacks } from './useWidgetCallbacks';
import type { ChromaKeyOptions } from '../stage/chroma-key';
import { MessagesProvider } from '../i18n/context';
import type { MessagesOverride } from '../i18n/messages';

/**
 * Props of {@link AvatarWidget}.
 * @public
 */
export interface AvatarWidgetProps extends WidgetCallbacks {
  /** Where `createAvatarProxy` is mounted, e.g. `/api/avatar`. */
  proxyUrl?: string;
  /** Agent of the hosted room. Without `proxyUrl` + `agentId` (or `session`) nothing renders. */
  agentId?: string;
  /** More session options (e.g. `keepAliveMs`, `flow`, `transport`); read when the session is created. */
  options?: Partial<AvatarSessionOptions>;
  /** Use this session instead of creating one (tests, stories, the attach flow). */
  session?: AvatarSession;
  /** Default `floating`. */
  variant?: 'floating' | 'inline';
  /** Uncontrolled start state (default: floating → `minimized`, inline → `active`). */
  initialState?: WidgetState;
  /** Controlled state; pair with `onStateChange`. */
  state?: WidgetState;
  onStateChange?: (state: WidgetState) => void;
  /** Default `auto` (follows `prefers-color-scheme`). */
  theme?: 'light' | 'dark' | 'auto';
  /** Name shown in the header (default `Avatar`). */
  title?: string;
  /**
   * The agent's picture (368×560 portrait): the first impression before a call (with `title` over it), and the
   * poster until the video plays.
   */
  imageUrl?: string;
  /**
   * A short looping preview video of the agent (URL; e.g. a few seconds of MP4 or WebM, 368×560) shown before the
   * call, muted and inline, over `imageUrl` (its poster). Not loaded for visitors who prefer reduced motion.
   */
  previewSrc?: string;
  /** Ends the call this long after it became active, ms; a countdown shows in the last 30 s. */
  maxDurationMs?: number;
  /** A call minimized (or hidden) this long is ended, ms (default 30000). The Minimize button says so during a call. */
  minimizedEndMs?: number;
  /** Minimizing keeps the call going (default false: a call minimized for `minimizedEndMs` is ended). Hidden still ends it. */
  minimizeKeepsCall?: boolean;
  /** Default: floating → `caption` over the video, inline → `conversation` beside it. */
  transcriptMode?: 'caption' | 'conversation';
  /** Show the "Change look" image swapper (default false). */
  imageSwapper?: boolean;
  /**
   * Transparent backdrop (chroma key): `true` removes green (`#00ff00`), or give `{color: '#rrggbb', similarity,
   * smoothness, spill}` (0–1 each). For avatars rendered on that solid colour. See `AvatarStageView`'s `chromaKey`.
   */
  chromaKey?: boolean | ChromaKeyOptions;
  /**
   * A step before the first call (default false): the widget asks for the microphone, shows its live level and the
   * microphone and speaker selects (the choice is remembered in `localStorage`), then "Join call" starts the call with
   * that microphone. Denied or missing, it explains why and offers "Try again" and "Join without microphone". The
   * step's code downloads only when it shows.
   */
  preJoin?: boolean;
  /**
   * Show "Your connection is unstable" while the call's quality stays poor (default true): a polite line under the
   * header the visitor can dismiss. It appears after two poor samples in a row (2 s apart: ≥ 5 % packet loss, ≥ 400
   * ms round trip or ≥ 50 ms jitter) and goes after two good ones.
   */
  showConnectionHint?: boolean;
  /** Show what the call cost (credits) on the ended screen (default true). */
  showCost?: boolean;
  /**
   * The language of every string a visitor sees: a translation (e.g. `es` from `liveai-kit/messages`) or a partial
   * override of English (e.g. `{ startCall: 'Call Ava' }`). Numbers, clocks and credits follow its `locale`; with
   * `dir: 'rtl'` (Arabic) the widget lays out right to left.
   */
  messages?: MessagesOverride;
  /** Receives the session whenever the widget gets one (e.g. to call its methods). */
  onSession?: (session: AvatarSession) => void;
  className?: string;
}

/**
 * The drop-in widget: start → queue progress → live avatar with transcript, chat and controls → end with
 * the cost. Creates its own session (one store per widget, so several widgets stay independent) unless
 * `session` is given. Ends 30 s after being minimized during a call (unless `minimizeKeepsCall`); ends at
 * `maxDurationMs`. Keyboard focus stays on a sensible control through every state change.
 * @public
 */
export function AvatarWidget(props: AvatarWidgetProps) {
  const { proxyUrl, agentId, session, options } = props;
  if (!session && !(proxyUrl && agentId)) {
    warnMissing(proxyUrl, agentId);
    return null;
  }
  const created: AvatarSessionOptions | undefined = session
    ? undefined
    : { proxyUrl: proxyUrl!, flow: { kind: 'room', agentId: agentId! }, ...options };
  return (
    <AvatarSessionProvider key={session ? 'given' : `${proxyUrl}|${agentId}`} session={session} options={created}>
      <MessagesProvider messages={props.messages}>
        <AvatarWidgetBody {...props} />
      </MessagesProvider>
    </AvatarSessionProvider>
  );
}

let warned = false;
/** In development, says once why the widget renders nothing (a blank page is hard to debug). */
function warnMissing(proxyUrl: string | undefined, agentId: string | undefined): void {
  if (warned || (typeof process !== 'undefined' && process.env?.NODE_ENV === 'production')) return;
  warned = true;
  const missing = [!proxyUrl && 'proxyUrl', !agentId && 'agentId'].filter(Boolean).join(' and ');
  console.warn(`<AvatarWidget/> renders nothing: give it ${missing} (where createAvatarProxy is mounted, and the agent), or a session.`);
}
