/**
 * The English catalogue whole: its first part (`enFirst`, in a page's first download) and the rest, which loads with
 * the parts that show it (the call's progress and controls, the ended and error screens, the other components).
 * Also the helpers whose default language is English.
 */
import { enFirst, mergeMessages, numberFormat, pluralRules, type FirstMessageKey, type Messages, type MessagesOverride } from './messages';

const enHints = {
  invalid_api_key: 'Please let the site owner know.',
  insufficient_funds: 'Please come back later.',
  missing_peer: 'Please let the site owner know.',
  not_found: 'It may have been removed.',
  payload_too_large: 'Inline images must be under 900 KB (uploads at most 4 MB). Use a smaller image or a URL.',
  rate_limited: 'Many people are calling at once. Wait a moment.',
  busy: 'Many people are calling at once. Wait a few minutes.',
  transport_failed: 'Check your internet connection.',
  image_change_error: 'Try a different picture.',
};

/** English, the rest of the catalogue (everything but {@link FirstMessageKey}). */
const enRest: Omit<Messages, FirstMessageKey> = {
  stopSpeaking: 'Stop talking',
  startAgain: 'Start again',
  tryAgain: 'Try again',
  endingCall: 'Ending the call…',
  callEnded: 'Call ended',
  timeLimitReached: 'This call reached its time limit.',
  endReasons: {
    idle_timeout: 'The avatar stopped after a period of inactivity.',
    timed_out: 'The avatar timed out.',
    failed: 'The avatar stopped unexpectedly.',
    remote: 'The avatar left the call.',
    max_duration: 'This call reached its time limit.',
    network: 'The connection was lost.',
    completed: 'The avatar ended the call.',
    out_of_credits: 'This avatar is out of call time for now.',
  },
  costPending: 'The cost will appear shortly.',
  costUsed: (credits) => `This call used ${credits}.`,
  credits: (amount, plural) => `${amount} ${plural === 'one' ? 'credit' : 'credits'}`,
  live: 'Live',
  endsInSpoken: (seconds, _plural, timeLimit) => `The call ends in ${seconds} seconds${timeLimit ? ' (time limit)' : ''}.`,
  callControls: 'Call controls',
  microphone: 'Microphone',
  muteSpeaker: 'Mute speaker',
  volume: 'Volume',
  stayConnected: 'Stay connected',
  stayConnectedHint: 'Stay connected: keep the call open while you are quiet',
  end: 'End',
  changeLook: 'Change look',
  close: 'Close',
  creating: 'Calling…',
  queued: 'Waiting for the avatar…',
  connecting: 'Connecting…',
  startingAvatar: 'Starting the avatar',
  elapsed: (clock) => `${clock} elapsed`,
  stillWaiting: 'Still waiting for the avatar service to answer…',
  moreTraffic: 'More traffic than usual… a cold start can take up to 2.5 minutes.',
  usuallyReady: 'Usually ready in a few seconds.',
  takingLonger: 'taking longer than usual',
  usuallySeconds: 'usually a few seconds',
  upTo: (clock) => `up to ${clock}`,
  message: 'Message',
  chatOpensInCall: 'Chat opens in a call',
  typeMessage: 'Type a message',
  send: 'Send',
  transcript: 'Transcript',
  you: 'You',
  transcriptEmpty: 'The conversation will appear here.',
  jumpToLatest: 'Jump to latest',
  imageZone: 'New look: drop or paste an image here',
  imagePreview: 'Preview, center-cropped to 368×560',
  imageDropHint: 'Drop or paste an image, or',
  chooseFile: 'Choose a file',
  imageUrl: 'Image URL',
  previewImage: 'Preview',
  applyLook: 'Apply new look',
  imageStatus: {
    sending: 'Sending the image…',
    requested: 'Imagining…',
    created: 'Almost there…',
    complete: 'New look applied.',
  },
  /* ---- The stage's agent-state hint, the avatar's audio, the meters, the image checks, the admin lists ---- */
  agentStates: { idle: 'Idle', listening: 'Listening', thinking: 'Thinking…', speaking: 'Speaking' },
  hearAvatar: 'Tap to hear the avatar',
  avatarAudio: 'Avatar audio',
  yourMicrophone: 'Your microphone',
  audioWithState: (label, state) => `${label}: ${state}`,
  quality: { excellent: 'excellent', good: 'good', poor: 'poor', lost: 'reconnecting', unknown: 'unknown' },
  connectionQuality: (quality, numbers) => `Connection ${quality}${numbers ? ` (${numbers})` : ''}`,
  roundTrip: (ms) => `${ms} ms round trip`,
  packetLoss: (percent) => `${percent} % loss`,
  jitter: (ms) => `${ms} ms jitter`,
  imageNotImage: 'Choose an image file (JPEG, PNG or WebP).',
  imageUnreadable: 'This image could not be read. Try a JPEG, PNG or WebP file.',
  imageBadUrl: 'Enter a public http(s) address of an image.',
  sessionLists: 'Session lists',
  rooms: 'Rooms',
  sessions: 'Sessions',
  hostedRooms: 'Hosted rooms',
  refresh: 'Refresh',
  loading: 'Loading…',
  listEmpty: 'Nothing here yet.',
  listError: (code, detail) => `Could not load the list (${code}): ${detail}`,
  pages: 'Pages',
  previousPage: 'Previous',
  nextPage: 'Next',
  pageOf: (page, pages, total) => `Page ${page} of ${pages} · ${total} total`,
  pageOnly: (page) => `Page ${page}`,
  columns: { session: 'Session', agent: 'Agent', provider: 'Provider', created: 'Created', status: 'Status', credits: 'Credits' },
  sessionStatus: { QUEUED: 'Queued', ACTIVE: 'Active', COMPLETED: 'Completed', TIMED_OUT: 'Timed out', FAILED: 'Failed' },
  /* ---- end of the stage, meter, image-check and admin-list block ---- */
  errorTitles: {
    default: 'Something went wrong.',
    invalid_request: 'The avatar could not start.',
    invalid_api_key: 'The avatar is not set up correctly.',
    insufficient_funds: 'The avatar is not available right now.',
    forbidden: 'The avatar is not available here.',
    not_found: 'This avatar could not be found.',
    conflict: 'That did not work.',
    payload_too_large: 'The image is too large.',
    rate_limited: 'The avatar is busy right now.',
    busy: 'The avatar is busy right now.',
    upstream_error: 'The avatar could not start.',
    timeout: 'The avatar service did not answer in time.',
    transport_failed: 'Could not connect to the call.',
    autoplay_blocked: 'Sound is blocked by the browser.',
    missing_peer: 'The avatar is not set up correctly.',
    image_change_error: 'The avatar could not use this image.',
  },
  errorHints: enHints,
  errorFinalHints: {
    default: 'Please reload the page.',
    invalid_request: 'Please reload the page. If it happens again, let the site owner know.',
    forbidden: 'Please let the site owner know.',
    conflict: 'Please reload the page.',
    upstream_error: 'Please come back later.',
    timeout: 'Please come back later.',
    rate_limited: 'Please come back later.',
    busy: 'Please come back later.',
    transport_failed: 'This browser cannot make video calls. Open this page in a current Chrome, Edge, Firefox or Safari.',
    autoplay_blocked: 'Allow sound for this site in the browser settings.',
  },
  // ---- Devices, the widget's pre-join step and its connection hint ----
  speaker: 'Speaker',
  defaultDevice: 'Default',
  microphoneN: (n) => `Microphone ${n}`,
  speakerN: (n) => `Speaker ${n}`,
  deviceNamesHidden: 'Device names appear once you allow the microphone.',
  preJoinTitle: 'Check your microphone',
  preJoinAsking: 'Allow the microphone when your browser asks, so the avatar can hear you.',
  micLevel: 'Microphone level',
  join: 'Join call',
  micDenied:
    'The microphone is blocked. Allow it in your browser’s site settings (next to the address ' +
    'bar) and try again, or join without it and chat by text.',
  micMissing: 'No microphone was found. Connect one and try again, or join without it and chat by text.',
  micBusy: 'The microphone could not be opened; another app may be using it. Try again, or join without it and chat by text.',
  joinWithoutMic: 'Join without microphone',
  connectionUnstable: 'Your connection is unstable: the video and sound may stutter.',
  dismiss: 'Dismiss',
  cancel: 'Cancel',
  chat: 'Chat',
  moreOptions: 'More options',
  busyUpTo: (clock) => `More traffic than usual: up to ${clock}`,
};

/**
 * English, the built-in default.
 * @public
 */
export const en: Messages = { ...enFirst, ...enRest };

/**
 * A full catalogue from English (or `base`) and a partial override; grouped keys merge key by key.
 * @public
 */
export function resolveMessages(override?: MessagesOverride | null, base: Messages = en): Messages {
  return mergeMessages(override, base);
}

/**
 * Credits with at most 2 decimals in the catalogue's language, e.g. `1.25 credits`, `1 credit` (English default).
 * @public
 */
export function formatCredits(credits: number, messages: Messages = en): string {
  const amount = numberFormat(messages.locale, 'credits', { maximumFractionDigits: 2 }).format(credits);
  return messages.credits(amount, pluralRules(messages.locale).select(credits));
}

/** A duration in whole milliseconds in the catalogue's locale, e.g. `310`. */
export const formatMs = (ms: number, messages: Messages): string =>
  numberFormat(messages.locale, 'ms', { maximumFractionDigits: 0 }).format(ms);

/** A percentage with one decimal in the catalogue's locale, e.g. `2.5` (`2,5` in French). */
export const formatPercent = (percent: number, messages: Messages): string =>
  numberFormat(messages.locale, 'percent', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(percent);

/**
 * The connection-quality sentence of a catalogue, as the `ConnectionQuality` bars give it to screen readers and in
 * their tooltip: `quality` is a key of `messages.quality` (`excellent`, `good`, `poor`, `lost` while reconnecting,
 * `unknown`), `stats` a sample of `useCallStats()` (round-trip time and jitter in ms, packet loss in %; a null number
 * is left out), each number formatted for `messages.locale`: e.g. "Connection good (310 ms round trip, 2.5 % loss,
 * 12 ms jitter)", "Connexion bonne (aller-retour 310 ms, 2,5 % de perte, gigue 12 ms)". For a hooks UI.
 * @public
 */
export function describeConnection(
  quality: keyof Messages['quality'],
  stats: { rttMs: number | null; packetLossPct: number | null; jitterMs: number | null } | null,
  messages: Messages = en,
): string {
  const m = messages;
  const numbers = stats
    ? [
        stats.rttMs === null ? null : m.roundTrip(formatMs(stats.rttMs, m)),
        stats.packetLossPct === null ? null : m.packetLoss(formatPercent(stats.packetLossPct, m)),
        stats.jitterMs === null ? null : m.jitter(formatMs(stats.jitterMs, m)),
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  return m.connectionQuality(m.quality[quality], numbers || null);
}
