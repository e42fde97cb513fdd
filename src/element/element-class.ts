import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
// The stylesheets of the widget's families (every one but the admin tables and charts, which the widget never shows).
import baseCss from '../components/styles/families/base.css?inline';
import widgetCss from '../components/styles/families/widget.css?inline';
import imagesCss from '../components/styles/families/images.css?inline';
import metersCss from '../components/styles/families/meters.css?inline';
import devicesCss from '../components/styles/families/devices.css?inline';
import { withAutoTheme } from '../components/styles/auto-theme.mjs';
import { AvatarWidget, type AvatarWidgetProps, type WidgetEndInfo, type WidgetState } from '../components';
import { attributeProblem, OBSERVED_ATTRIBUTES, propsFromAttributes } from './attributes';
import { offerLook } from '../components/images/offer-look';
import {
  type AvatarSession,
  type AvatarSessionOptions,
  type ErrorCode,
  type ImageChangeState,
  type ImageInput,
  LiveAiError,
  type Phase,
  type TranscriptLine,
} from '../core/index';
import { mergeMessages, type Messages, type MessagesOverride } from '../components/i18n/messages';

/** The built-in translations, loaded on demand (the element ships English only). */
const loadTranslations = () => import('../components/i18n/translations');
type BuiltIn = 'es' | 'fr' | 'de' | 'ja' | 'ar';
const BUILT_IN: readonly string[] = ['es', 'fr', 'de', 'ja', 'ar'] satisfies BuiltIn[];
/** `es-MX` → `es` when a translation of it ships; null for English and languages without one. */
const builtInOf = (lang: string | null): BuiltIn | null => {
  const primary = (lang ?? '').trim().toLowerCase().split('-')[0] ?? '';
  return BUILT_IN.includes(primary) ? (primary as BuiltIn) : null;
};

const HOST_CSS = ':host{display:block}:host(:not([inline])){display:contents}';

/**
 * The element's styles as one constructable stylesheet, made once and adopted by every shadow root: a page whose
 * Content-Security-Policy has `style-src 'self'` (no `'unsafe-inline'`) blocks an inline `<style>`, but not a
 * stylesheet built with the CSSOM. Null where the browser cannot adopt stylesheets (Safari before 16.4): the element
 * then falls back to a `<style>` element carrying the page's nonce (see the `nonce` attribute).
 */
let sheet: CSSStyleSheet | null | undefined;
const cssText = () => HOST_CSS + withAutoTheme(baseCss + widgetCss + imagesCss + metersCss + devicesCss);
function sharedSheet(): CSSStyleSheet | null {
  if (sheet !== undefined) return sheet;
  try {
    if (!('adoptedStyleSheets' in ShadowRoot.prototype) || typeof CSSStyleSheet.prototype.replaceSync !== 'function') return (sheet = null);
    sheet = new CSSStyleSheet();
    sheet.replaceSync(cssText());
  } catch {
    sheet = null;
  }
  return sheet;
}

/**
 * The `detail` of a `liveai-error` event: the error's `code` and `detail` text, the `LiveAiError` itself, and for a
 * bad attribute its name.
 * @public
 */
export interface LiveAiErrorDetail {
  /** The error's stable code (e.g. `invalid_request`, `not_found`, `transport_failed`). */
  code: ErrorCode;
  /** What went wrong, in words (the proxy's or the service's `detail` when it came from them). */
  detail: string;
  /** The error itself. */
  error: LiveAiError;
  /** The attribute whose value was invalid (the default applies); absent for errors of the session. */
  attribute?: string;
}

/**
 * The DOM events of `<liveai-avatar>`, by name: each is a `CustomEvent` that bubbles and is composed (it reaches
 * `document`), with `event.target` the element.
 * - `liveai-phase`: `{phase}` on every phase change (`creating`, `queued`, `connecting`, `active`, `ending`, `ended`,
 *   `error`).
 * - `liveai-transcript`: `{id, role, text, at}` once per new transcript line (`role` `user` or `agent`, `at` epoch ms).
 * - `liveai-error`: `{code, detail, error}`, plus `attribute` for an invalid attribute.
 * - `liveai-image-change`: `{status, error?}` as an image change progresses.
 * - `liveai-ended`: `{reason, cost, sessionId, error}` when the session ended or failed (cost in credits, null when
 *   unknown; `error` the `LiveAiError` of a call that failed, else null).
 * @public
 */
export interface LiveAiAvatarEventMap {
  /** On every phase change. */
  'liveai-phase': CustomEvent<{ phase: Phase }>;
  /** Once per new transcript line. */
  'liveai-transcript': CustomEvent<TranscriptLine>;
  /** Every error the session reports, and each invalid attribute once. */
  'liveai-error': CustomEvent<LiveAiErrorDetail>;
  /** As an image change progresses. */
  'liveai-image-change': CustomEvent<ImageChangeState>;
  /** When the session has ended. */
  'liveai-ended': CustomEvent<WidgetEndInfo>;
}

/**
 * The `<liveai-avatar>` element: what a page can call and read on it (for
 * `document.querySelector('liveai-avatar') as LiveAiAvatarElement`). Besides these, it dispatches the bubbling,
 * composed DOM events of {@link LiveAiAvatarEventMap}.
 * @public
 */
export interface LiveAiAvatarElement extends HTMLElement {
  /** Listens to one of the element's events (typed by {@link LiveAiAvatarEventMap}) or any DOM event. */
  addEventListener<K extends keyof LiveAiAvatarEventMap>(
    type: K,
    listener: (this: LiveAiAvatarElement, event: LiveAiAvatarEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: LiveAiAvatarElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  /** Removes a listener added with `addEventListener`. */
  removeEventListener<K extends keyof LiveAiAvatarEventMap>(
    type: K,
    listener: (this: LiveAiAvatarElement, event: LiveAiAvatarEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: LiveAiAvatarElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  /**
   * Extra session options as a JS property (e.g. `keepAliveMs`, `transport`, or a custom `fetch`); read
   * when the session is created, so set it before the element is connected or `agent-id` changes.
   */
  options: Partial<AvatarSessionOptions> | undefined;
  /**
   * Overrides strings of the widget (a partial message catalogue, e.g. `{ startCall: 'Call Ava' }`) on top of the
   * language `lang` picks; or a whole translation (`es` from `liveai-kit/messages`).
   */
  messages: MessagesOverride | undefined;
  /**
   * Opens the widget and starts a call; resolves when active, rejects with `LiveAiError` (`invalid_request` when
   * `agent-id` or `proxy-url` is missing).
   */
  start(): Promise<void>;
  /** Ends the call (idempotent). */
  end(): Promise<void>;
  /** Mutes the avatar's sound (the speaker). */
  mute(): void;
  /** Unmutes the avatar's sound (the speaker). */
  unmute(): void;
  /** Speaker muted, from the session's store. */
  isMuted(): boolean;
  /** Same as `isMuted()`. */
  readonly muted: boolean;
  /** Publishes the microphone in the call (waits for the session); rejects with `LiveAiError`. */
  micOn(): Promise<void>;
  /** Stops the microphone. */
  micOff(): Promise<void>;
  /** Whether the microphone is really on, from the session's store (not a guess). */
  isMicOn(): boolean;
  /** Same as `isMicOn()`. */
  readonly micEnabled: boolean;
  /** Sends a chat message (`chat-msg`); rejects unless active. */
  sendMessage(text: string): Promise<void>;
  /**
   * Asks the avatar to take a new look (`update-image`): `{url}`, `{base64}` (or a data URL) or
   * `{blob}` (cropped to 368×560 and compressed first). Progress arrives as `liveai-image-change` events.
   * Rejects with `LiveAiError` (`invalid_request`, `payload_too_large` for inline images ≥ 921600 bytes, …).
   */
  updateImage(input: ImageInput): Promise<void>;
  /** The session's phase (`idle` before the first call). */
  readonly phase: Phase;
  /** The session's id once created, else null. */
  readonly sessionId: string | null;
  /** A copy of the transcript lines so far. */
  readonly transcript: TranscriptLine[];
  /** `minimized` | `active` | `hidden`: what the widget shows now. */
  readonly state: WidgetState;
  /** The session's error while the phase is `error`, else the last attribute problem, else null. */
  readonly error: LiveAiError | null;
}
/** The same interface, named apart from the class below (whose own name stays `LiveAiAvatarElement`). */
type ElementApi = LiveAiAvatarElement;

/**
 * Builds the `<liveai-avatar>` class. Called only in a browser (by `defineLiveAiAvatar`), so importing this
 * package never evaluates `class extends HTMLElement` where `HTMLElement` does not exist.
 */
export function createLiveAiAvatarClass() {
  return class LiveAiAvatarElement extends HTMLElement implements ElementApi {
    static observedAttributes = OBSERVED_ATTRIBUTES;
    #root: Root | null = null;
    #mount: HTMLDivElement;
    #unmountTimer: ReturnType<typeof setTimeout> | undefined;
    #session: AvatarSession | null = null;
    #waiters: ((s: AvatarSession) => void)[] = [];
    /** Open/minimized/hidden once changed by the user or `start()`; before that `initial-state` applies. */
    #state: WidgetState | null = null;
    #options: AvatarWidgetProps['options'];
    /** Attribute name → the problem last reported for it (each one is reported once, as `liveai-error`). */
    #problems = new Map<string, { text: string; reported: boolean }>();
    #attributeError: LiveAiError | null = null;
    #messages: MessagesOverride | undefined;
    /** The translation `lang` names, once loaded. */
    #translation: { lang: BuiltIn; messages: Messages } | null = null;

    constructor() {
      super();
      const shadow = this.attachShadow({ mode: 'open' });
      this.#mount = document.createElement('div');
      const adopted = sharedSheet();
      if (adopted) {
        shadow.adoptedStyleSheets = [adopted];
        shadow.append(this.#mount);
      } else {
        const style = document.createElement('style');
        // `nonce` is hidden from getAttribute once the page has loaded; the IDL property keeps it.
        const nonce = this.nonce || this.getAttribute('nonce');
        if (nonce) style.nonce = nonce;
        style.textContent = cssText();
        shadow.append(style, this.#mount);
      }
    }
    connectedCallback() {
      clearTimeout(this.#unmountTimer);
      this.#root ??= createRoot(this.#mount);
      this.#render();
      this.#reportProblems();
    }
    disconnectedCallback() {
      // Deferred, so moving the element in the DOM keeps its session.
      this.#unmountTimer = setTimeout(() => {
        this.#root?.unmount();
        this.#root = null;
        this.#session = null;
      }, 0);
    }
    attributeChangedCallback(name: string, _old: string | null, value: string | null) {
      const text = attributeProblem(name, value);
      if (text === null) this.#problems.delete(name);
      else if (this.#problems.get(name)?.text !== text) this.#problems.set(name, { text, reported: false });
      this.#attributeError = [...this.#problems.values()].map((p) => new LiveAiError('invalid_request', p.text)).pop() ?? null;
      if (this.#root) this.#render();
      this.#reportProblems();
    }
    /**
     * Emits one `liveai-error` {code: 'invalid_request', detail, attribute} per new attribute problem, a task
     * later, so listeners the host page adds right after the element is created or upgraded still hear it.
     */
    #reportProblems() {
      setTimeout(() => {
        if (!this.isConnected) return;
        for (const [attribute, p] of this.#problems) {
          if (p.reported) continue;
          p.reported = true;
          const error = new LiveAiError('invalid_request', `<${this.localName}> ${p.text}`);
          this.#emit('liveai-error', { code: error.code, detail: error.detail, attribute, error });
        }
      }, 0);
    }

    #emit = <K extends keyof LiveAiAvatarEventMap>(type: K, detail: LiveAiAvatarEventMap[K]['detail']) =>
      this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    #setState = (state: WidgetState) => {
      this.#state = state;
      this.#render();
    };
    /** The catalogue: the `lang` translation (loaded first: nothing renders in the wrong language meanwhile), `messages` over it. */
    #catalogue(): { ready: boolean; messages?: MessagesOverride } {
      const lang = builtInOf(this.getAttribute('lang'));
      if (lang && this.#translation?.lang !== lang) {
        void loadTranslations().then((t) => {
          this.#translation = { lang, messages: t[lang] };
          this.#render();
        });
        return { ready: false };
      }
      const base = lang ? this.#translation!.messages : undefined;
      const rtl = this.getAttribute('dir')?.toLowerCase() === 'rtl' ? { dir: 'rtl' as const } : undefined;
      if (!base && !rtl && !this.#messages) return { ready: true };
      // An override of English: the widget fills in the rest of English itself (the call's strings load with the call).
      return { ready: true, messages: mergeMessages(this.#messages, mergeMessages<MessagesOverride>(rtl, base ?? {})) };
    }
    #render() {
      const props = propsFromAttributes(this);
      const catalogue = this.#catalogue();
      if (!catalogue.ready) return;
      this.#root?.render(
        createElement(AvatarWidget, {
          ...props,
          messages: catalogue.messages,
          state: this.#state ?? undefined,
          options: props.options ? { ...props.options, ...this.#options } : this.#options,
          onStateChange: this.#setState,
          onSession: (s) => {
            this.#session = s;
            for (const w of this.#waiters.splice(0)) w(s);
          },
          onPhaseChange: (phase) => this.#emit('liveai-phase', { phase }),
          onTranscript: (line) => this.#emit('liveai-transcript', line),
          onError: (error) => this.#emit('liveai-error', { code: error.code, detail: error.detail, error }),
          onImageChange: (image) => this.#emit('liveai-image-change', image),
          onEnd: (info) => this.#emit('liveai-ended', info),
        }),
      );
    }
    /** The session once the widget has one; rejects when `agent-id` / `proxy-url` are missing. */
    #ready(): Promise<AvatarSession> {
      if (this.#session) return Promise.resolve(this.#session);
      if (!this.getAttribute('agent-id')?.trim() || !this.getAttribute('proxy-url')?.trim()) {
        const error = new LiveAiError('invalid_request', `<${this.localName}> needs the agent-id and proxy-url attributes`);
        this.#emit('liveai-error', { code: error.code, detail: error.detail, error });
        return Promise.reject(error);
      }
      return new Promise((resolve) => this.#waiters.push(resolve));
    }
    #store = () => this.#session?.store.getState();

    get options(): AvatarWidgetProps['options'] {
      return this.#options;
    }
    set options(value: AvatarWidgetProps['options']) {
      this.#options = value;
      if (this.#root) this.#render();
    }
    get messages(): MessagesOverride | undefined {
      return this.#messages;
    }
    set messages(value: MessagesOverride | undefined) {
      this.#messages = value;
      if (this.#root) this.#render();
    }
    async start(): Promise<void> {
      this.#setState('active');
      await (await this.#ready()).start();
    }
    async end(): Promise<void> {
      await this.#session?.end('user');
    }
    mute(): void {
      this.#session?.setSpeakerMuted(true);
    }
    unmute(): void {
      this.#session?.setSpeakerMuted(false);
    }
    isMuted(): boolean {
      return this.#store()?.media.speakerMuted ?? false;
    }
    get muted(): boolean {
      return this.isMuted();
    }
    async micOn(): Promise<void> {
      await (await this.#ready()).setMicEnabled(true);
    }
    async micOff(): Promise<void> {
      await (await this.#ready()).setMicEnabled(false);
    }
    isMicOn(): boolean {
      return this.#store()?.media.micEnabled ?? false;
    }
    get micEnabled(): boolean {
      return this.isMicOn();
    }
    async sendMessage(text: string): Promise<void> {
      await (await this.#ready()).sendChat(text);
    }
    async updateImage(input: ImageInput): Promise<void> {
      const session = await this.#ready();
      // Once applied, the widget shows this picture as the avatar's poster (e.g. on the ended screen).
      offerLook(session, input);
      await session.updateImage(input);
    }
    get phase(): Phase {
      return this.#store()?.phase ?? 'idle';
    }
    get sessionId(): string | null {
      return this.#store()?.sessionId ?? null;
    }
    get transcript(): TranscriptLine[] {
      return [...(this.#store()?.transcript ?? [])];
    }
    get state(): WidgetState {
      const fallback = this.hasAttribute('inline') ? 'active' : 'minimized';
      return this.#state ?? propsFromAttributes(this).initialState ?? fallback;
    }
    get error(): LiveAiError | null {
      return this.#store()?.error ?? this.#attributeError;
    }
  };
}
