/**
 * The message catalogue of the components: every sentence and label a visitor sees or hears, in one typed object.
 * English is built in; other languages are separate imports (`liveai-kit/messages`), so the default bundle does not
 * carry them. Sentences with a value are functions that receive it already formatted for the catalogue's `locale`
 * (numbers, clocks and credits through `Intl`).
 */

/**
 * An `Intl.PluralRules` category: which word form a count takes (`one`, `other`, and in some languages more).
 * @public
 */
export type PluralCategory = Intl.LDMLPluralRule;

/**
 * Every user-visible string of the components, the widget and `<liveai-avatar>`. Pass a whole translation (e.g. `es`
 * from `liveai-kit/messages`) or a partial override; anything missing falls back to English. Technical detail
 * (`LiveAiError.detail`, console lines) stays English for developers.
 * @public
 */
export interface Messages {
  /** BCP 47 language tag used for `Intl` number, plural and clock formatting (e.g. `en`, `es`, `ar`). */
  locale: string;
  /** Writing direction of the language: `rtl` lays the widget out right to left. */
  dir: 'ltr' | 'rtl';
  /** Default avatar name (header, stage label). */
  avatar: string;
  /** The stage's accessible name: "Ava video". */
  videoOf: (name: string) => string;
  startCall: string;
  tapToUnmute: string;
  /** The button that stops the avatar mid-reply (`StopSpeakingButton`). */
  stopSpeaking: string;
  startAgain: string;
  tryAgain: string;
  endingCall: string;
  callEnded: string;
  timeLimitReached: string;
  /**
   * Why the call ended, when the avatar's side ended it (the visitor's own end needs no reason): under "Call ended"
   * for `idle_timeout`, `completed`, `remote` and `max_duration`; as the error screen's sentence for a call that was
   * live and failed (`failed`), `timed_out`, `network` and `out_of_credits`.
   */
  endReasons: {
    idle_timeout: string;
    timed_out: string;
    failed: string;
    remote: string;
    max_duration: string;
    network: string;
    completed: string;
    out_of_credits: string;
  };
  costPending: string;
  /** "This call used 1.25 credits." `credits` comes from {@link Messages.credits}. */
  costUsed: (credits: string) => string;
  /** "1.25 credits": `amount` is formatted for `locale`, `plural` is its `Intl.PluralRules` category. */
  credits: (amount: string, plural: PluralCategory) => string;
  /** Launcher before a call: "Talk to Ava". */
  talkTo: (name: string) => string;
  /** Launcher during a minimized call: "In call with Ava · Open". */
  inCallWith: (name: string) => string;
  /** Launcher while a minimized call runs out: "Call ends in 0:29 · Open". */
  minimizedEnds: (clock: string) => string;
  minimize: string;
  /** Minimize during a call when minimizing ends it after `seconds`. */
  minimizeEndsCall: (seconds: string) => string;
  live: string;
  timeLeft: string;
  /** "Call ends in 0:29" (the last 30 s of the call's maximum length). */
  callEndsIn: (clock: string) => string;
  /**
   * Announced to screen readers 30 s (`timeLimit` true) and 10 s before the time limit; `plural` is the
   * `Intl.PluralRules` category of the number of seconds.
   */
  endsInSpoken: (seconds: string, plural: PluralCategory, timeLimit: boolean) => string;
  callControls: string;
  microphone: string;
  muteSpeaker: string;
  volume: string;
  stayConnected: string;
  stayConnectedHint: string;
  end: string;
  changeLook: string;
  close: string;
  /** Queue progress by phase. */
  creating: string;
  queued: string;
  connecting: string;
  startingAvatar: string;
  /** The progress bar's spoken value: "0:04 elapsed". */
  elapsed: (clock: string) => string;
  stillWaiting: string;
  moreTraffic: string;
  usuallyReady: string;
  takingLonger: string;
  usuallySeconds: string;
  /** "up to 0:10": the estimate of a cold start. */
  upTo: (clock: string) => string;
  /** The chat field's label. */
  message: string;
  chatOpensInCall: string;
  typeMessage: string;
  send: string;
  transcript: string;
  you: string;
  transcriptEmpty: string;
  jumpToLatest: string;
  imageZone: string;
  imagePreview: string;
  imageDropHint: string;
  chooseFile: string;
  imageUrl: string;
  previewImage: string;
  applyLook: string;
  /** Image swapper progress. */
  imageStatus: { sending: string; requested: string; created: string; complete: string };
  /* ---- The stage's agent-state hint, the avatar's audio, the meters, the image checks, the admin lists ---- */
  /** What the agent is doing, announced politely on the stage and named by the audio bars. */
  agentStates: { idle: string; listening: string; thinking: string; speaking: string };
  /** The avatar audio's unlock button when the browser blocked sound (`AvatarAudio`). */
  hearAvatar: string;
  /** The audio bars' accessible names. */
  avatarAudio: string;
  yourMicrophone: string;
  /** The audio bars with the agent's state: "Avatar audio: Speaking". */
  audioWithState: (label: string, state: string) => string;
  /** The connection quality in a word: three bars filled for excellent, two good, one poor, none otherwise. */
  quality: { excellent: string; good: string; poor: string; lost: string; unknown: string };
  /** The quality indicator's accessible name and tooltip: "Connection good (310 ms round trip, 2.5 % loss, 12 ms jitter)". */
  connectionQuality: (quality: string, numbers: string | null) => string;
  /** The numbers of a quality sample, already formatted: milliseconds and a percentage. */
  roundTrip: (ms: string) => string;
  packetLoss: (percent: string) => string;
  jitter: (ms: string) => string;
  /** Image checks before anything is sent. */
  imageNotImage: string;
  imageUnreadable: string;
  imageBadUrl: string;
  /** The admin list of rooms and sessions (`SessionList`). */
  sessionLists: string;
  rooms: string;
  sessions: string;
  hostedRooms: string;
  refresh: string;
  loading: string;
  listEmpty: string;
  /** The list failed: the error code and the technical detail (English) are shown, as this is an admin screen. */
  listError: (code: string, detail: string) => string;
  pages: string;
  previousPage: string;
  nextPage: string;
  /** "Page 2 of 3 · 60 total" (numbers already formatted). */
  pageOf: (page: string, pages: string, total: string) => string;
  /** "Page 2", before the list's size is known. */
  pageOnly: (page: string) => string;
  /** Column headers of the list. */
  columns: { session: string; agent: string; provider: string; created: string; status: string; credits: string };
  /** A session's status as the service reports it. */
  sessionStatus: { QUEUED: string; ACTIVE: string; COMPLETED: string; TIMED_OUT: string; FAILED: string };
  /* ---- end of the stage, meter, image-check and admin-list block ---- */
  /** Error titles by `LiveAiError` code (`busy`: the site's own limits say "not now"); `default` for any other. */
  errorTitles: Record<string, string> & { default: string };
  /** A hint beyond "Try again", by code (when retrying may help). */
  errorHints: Record<string, string>;
  /**
   * What to do instead when retrying cannot help (`retryable: false`), by code; a code not here uses its
   * `errorHints` entry, then `default`.
   */
  errorFinalHints: Record<string, string> & { default: string };

  // ---- Devices, the widget's pre-join step and its connection hint (DeviceSelect, AvatarWidget) ----
  /** The speaker (audio output) select's label. The microphone select uses {@link Messages.microphone}. */
  speaker: string;
  /** The first option of a device select: the browser's own choice. */
  defaultDevice: string;
  /** A device whose name the browser hides (no permission yet): "Microphone 2", "Speaker 2". */
  microphoneN: (n: string) => string;
  speakerN: (n: string) => string;
  /** Under a device select while the browser hides device names (until the microphone is allowed). */
  deviceNamesHidden: string;
  /** Heading of the widget's pre-join step. */
  preJoinTitle: string;
  /** While the browser asks for the microphone. */
  preJoinAsking: string;
  /** The live level meter's accessible name in the pre-join step. */
  micLevel: string;
  /** The pre-join step's button that starts the call. */
  join: string;
  /** The microphone is blocked (permission denied): what to do. */
  micDenied: string;
  /** No microphone was found. */
  micMissing: string;
  /** The microphone could not be opened (e.g. another app uses it). */
  micBusy: string;
  /** Starts the call with the microphone off (text chat only). */
  joinWithoutMic: string;
  /** The widget's polite hint while the connection stays poor. */
  connectionUnstable: string;
  /** Closes a hint. */
  dismiss: string;

  // ---- The widget's call controls over the video (AvatarWidget) ----
  /** Stops a call that is still starting. */
  cancel: string;
  /** The toggle that shows or hides the chat field during a call. */
  chat: string;
  /** The button that opens the less used call options (speaker, devices, "Stay connected", "Change look"). */
  moreOptions: string;
  /** The wait's note once it takes longer than usual: "More traffic than usual: up to 2:30". */
  busyUpTo: (clock: string) => string;
  /** While the avatar is coming, in a LiveKit agent's room with the microphone on: what is said already reaches the agent. */
  listeningWhileWaiting: string;
  /** While the avatar is coming where the service's own agent answers: speech is heard once the avatar is live. */
  talkOnceLive: string;
  /** The call runs without a microphone because the browser blocked it: the visitor can type. */
  micBlocked: string;
  /** The call runs without a microphone because none could be opened: the visitor can type. */
  micUnavailable: string;
}

/**
 * A partial override of {@link Messages}: top-level keys replace, the grouped ones (`endReasons`, `imageStatus`,
 * `errorTitles`, `errorHints`, `errorFinalHints`, `agentStates`, `quality`, `columns`, `sessionStatus`) merge key by
 * key.
 * @public
 */
export type MessagesOverride = Partial<Omit<Messages, MessageGroupKey>> & {
  [K in MessageGroupKey]?: Partial<Messages[K]>;
};

/**
 * The keys of {@link Messages} that hold a group of messages (an object keyed by error code, end reason, status, …)
 * rather than one message: a {@link MessagesOverride} merges these key by key instead of replacing them.
 * @public
 */
export type MessageGroupKey =
  'endReasons' | 'imageStatus' | 'errorTitles' | 'errorHints' | 'errorFinalHints' | 'agentStates' | 'quality' | 'columns' | 'sessionStatus';
const GROUPS: readonly MessageGroupKey[] = [
  'endReasons',
  'imageStatus',
  'errorTitles',
  'errorHints',
  'errorFinalHints',
  'agentStates',
  'quality',
  'columns',
  'sessionStatus',
];

/**
 * The strings a widget shows before its first call (the launcher, the header, the avatar's picture with Start, "Turn
 * on sound", the countdown of the header) and the lines over the picture from the Start click on (when the visitor
 * can talk, a refused microphone): the English catalogue's first part, in the page's first download. The
 * rest (the call's progress and controls, the ended and error screens, the cost, the other components) loads with
 * the call's parts (`./en`). A component in a page's first download reads only these ({@link useFirstMessages}), so
 * none of its strings can be missing while the rest loads.
 */
export type FirstMessageKey =
  | 'locale'
  | 'dir'
  | 'avatar'
  | 'videoOf'
  | 'startCall'
  | 'tapToUnmute'
  | 'talkTo'
  | 'inCallWith'
  | 'minimizedEnds'
  | 'minimize'
  | 'minimizeEndsCall'
  | 'timeLeft'
  | 'callEndsIn'
  | 'listeningWhileWaiting'
  | 'talkOnceLive'
  | 'micBlocked'
  | 'micUnavailable';
/** The first part of a catalogue: what a component in the page's first download may read. */
export type FirstMessages = Pick<Messages, FirstMessageKey>;
/**
 * A catalogue as the components' context holds it: the first part always, the rest when a translation or an override
 * gave it (English fills in the rest once the call's parts are there).
 */
export type Catalogue = FirstMessages & MessagesOverride;

/** English, the first part (see {@link FirstMessageKey}). */
export const enFirst: FirstMessages = {
  locale: 'en',
  dir: 'ltr',
  avatar: 'Avatar',
  videoOf: (name) => `${name} video`,
  startCall: 'Start call',
  tapToUnmute: 'Turn on sound',
  talkTo: (name) => `Talk to ${name}`,
  inCallWith: (name) => `In call with ${name} · Open`,
  minimizedEnds: (clock) => `Call ends in ${clock} · Open`,
  minimize: 'Minimize',
  minimizeEndsCall: (seconds) => `Minimize (the call ends if it stays minimized for ${seconds} s)`,
  timeLeft: 'Time left in this call',
  callEndsIn: (clock) => `Call ends in ${clock}`,
  // The lines over the picture from the Start click on (before the call's parts may have loaded).
  listeningWhileWaiting: 'Listening: you can start talking while the avatar joins.',
  talkOnceLive: 'You can talk once the avatar is live.',
  micBlocked: 'Microphone blocked. Type to talk, or allow it in your browser.',
  micUnavailable: 'No microphone available. Type to talk.',
};

/** `override` over `base`: top-level keys replace, grouped keys merge key by key; `base` itself without an override. */
export function mergeMessages<B extends MessagesOverride>(override: MessagesOverride | null | undefined, base: B): B {
  if (!override) return base;
  const out = { ...base, ...override } as Record<string, unknown>;
  for (const k of GROUPS) if (override[k]) out[k] = { ...base[k], ...override[k] };
  return out as B;
}

/**
 * `m:ss` of a duration in ms in the catalogue's locale (negative values count as 0), e.g. `0:29`.
 * @public
 */
export function formatClock(ms: number, locale = 'en'): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const minutes = numberFormat(locale, 'clock-minutes', { useGrouping: false }).format(Math.floor(s / 60));
  const seconds = numberFormat(locale, 'clock-seconds', { minimumIntegerDigits: 2 }).format(s % 60);
  return `${minutes}:${seconds}`;
}

/** A whole number of seconds in the catalogue's locale. */
export const formatNumber = (n: number, messages: Pick<Messages, 'locale'>): string => numberFormat(messages.locale, 'plain').format(n);

/**
 * Intl formatters, made once per locale and use: making one costs the main thread milliseconds (the locale's data is
 * looked up each time), and the widget formats a label on every render of a call.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.PluralRules>();

export function numberFormat(locale: string, use: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `number|${use}|${locale}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/**
 * Makes the formatters a call's labels use (the minimize label, the clocks) once the page is idle, so the first
 * of them (which loads the locale's number data: about 10 ms of main-thread script in Chromium) is not made
 * between the Start click and the first video frame. Does nothing outside a browser.
 */
export function prepareFormatters(locale: string): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const make = () => {
    numberFormat(locale, 'plain');
    numberFormat(locale, 'clock-minutes', { useGrouping: false });
    numberFormat(locale, 'clock-seconds', { minimumIntegerDigits: 2 });
  };
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(make, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(make, 0);
  return () => clearTimeout(id);
}

/** Plural categories (`one`, `other`, …) of the locale; made once per locale. */
export function pluralRules(locale: string): Intl.PluralRules {
  const key = `plural|${locale}`;
  let f = formatters.get(key) as Intl.PluralRules | undefined;
  if (!f) formatters.set(key, (f = new Intl.PluralRules(locale)));
  return f;
}
