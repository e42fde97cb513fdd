import type { AvatarEvent, ClientSession, RoomList, SessionList, TranscriptLine } from '../core/index';

const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);

/**
 * A drawn 368×560 portrait as an SVG data URL (no network needed): posters, fake video, image swaps.
 * @public
 */
export const sampleAvatarImage = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"
viewBox="0 0 368 560">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#5b6ee1"/>
<stop offset="1" stop-color="#1d2240"/></linearGradient></defs>
<rect width="368" height="560" fill="url(#bg)"/>
<path d="M54 560c8-120 62-170 130-170s122 50 130 170z" fill="#2f3b63"/>
<rect x="160" y="330" width="48" height="70" rx="20" fill="#e0a98a"/>
<ellipse cx="184" cy="250" rx="82" ry="100" fill="#f0bf9f"/>
<path d="M100 240c-4-80 46-120 90-120s88 34 80 120c-10-40-40-66-86-70-46 6-76 30-84 70z" fill="#3a2a22"/>
<ellipse cx="152" cy="258" rx="9" ry="11" fill="#2a1d17"/><ellipse cx="216" cy="258" rx="9" ry="11" fill="#2a1d17"/>
<path d="M160 306q24 18 48 0" stroke="#a4553f" stroke-width="6" fill="none" stroke-linecap="round"/>
</svg>`)}`;

/**
 * The same portrait on another background: a second look for image swaps.
 * @public
 */
export const sampleAvatarImageAlt = sampleAvatarImage.replace('%235b6ee1', '%23c2577a');

/**
 * A short conversation as transcript lines (ids 1..6, one line every 4 s; the agent has the last word).
 * @public
 */
export const sampleTranscript: TranscriptLine[] = [
  { id: 1, role: 'agent', text: 'Hi! I am your avatar guide. What would you like to talk about?', at: T0 },
  { id: 2, role: 'user', text: 'Can you tell me what you can do?', at: T0 + 4000 },
  { id: 3, role: 'agent', text: 'I can answer questions, change my look, and keep you company while you browse.', at: T0 + 8000 },
  { id: 4, role: 'user', text: 'Change your look to something cheerful.', at: T0 + 12000 },
  { id: 5, role: 'agent', text: 'Imagining a new look for you now.', at: T0 + 16000 },
  { id: 6, role: 'agent', text: 'There you go, a brighter look. Anything else I can help with?', at: T0 + 20000 },
];

/**
 * `count` alternating lines (agent first, ids 1..count, 3 s apart), long enough to wrap: for scrolling.
 * @public
 */
export function longTranscript(count = 24): TranscriptLine[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    role: i % 2 ? 'user' : 'agent',
    text:
      i % 2
        ? `Question number ${(i + 1) / 2}?`
        : `Answer ${i / 2 + 1}: a longer reply so lines wrap over more than one row in a narrow panel.`,
    at: T0 + i * 3000,
  }));
}

/**
 * The same conversation as service events, with an image change in the middle.
 * @public
 */
export const sampleEvents: AvatarEvent[] = [
  { type: 'bot_ready' },
  ...sampleTranscript
    .slice(0, 5)
    .map((l): AvatarEvent =>
      l.role === 'user' ? { type: 'user_transcription', transcription: l.text } : { type: 'agent_transcription', transcription: l.text },
    ),
  { type: 'image_change_requested' },
  { type: 'image_created' },
  { type: 'image_change_complete' },
  { type: 'agent_transcription', transcription: sampleTranscript[5]!.text },
];

/**
 * A session handle like the proxy returns for a hosted room (rtc-b). Tokens are placeholders.
 * @public
 */
export const sampleClientSession: ClientSession = {
  session_id: 'sess_sample',
  client_token: 'ct_sample',
  transport: 'rtc-b',
  room_url: 'https://rooms.fake.test/room-sample',
  token: 'room-token-sample',
  image_url: 'https://images.fake.test/agent.png',
};

const iso = (minutesAgo: number) => new Date(T0 - minutesAgo * 60_000).toISOString();
const STATUSES = ['ACTIVE', 'COMPLETED', 'QUEUED', 'FAILED', 'TIMED_OUT'] as const;
const credits = (status: string, n: number) => (status === 'COMPLETED' ? n : null);

/**
 * A page of `GET /rooms`: one room in each status, newest first, long ids.
 * @public
 */
export const sampleRoomList: RoomList = {
  rooms: STATUSES.map((status, i) => ({
    agent_id: i % 2 ? 'agent-cartoon' : 'agent-demo',
    session_id: `room_${(0x5f3a9 + i * 7919).toString(16)}c0ffee${i}`,
    created_at: iso(i * 60),
    session_status: status,
    credits_used: credits(status, 2.5),
  })),
  pagination: { page: 1, limit: 25, total: STATUSES.length, total_pages: 1, has_more: false },
};

/**
 * A page of `GET /sessions`: one session in each status, both providers.
 * @public
 */
export const sampleSessionList: SessionList = {
  sessions: STATUSES.map((status, i) => ({
    session_id: `sess_${(0x9a1f + i * 104729).toString(16)}beef${i}`,
    created_at: iso(i * 90),
    session_status: status,
    credits_used: credits(status, 1.25),
    provider: i % 2 ? 'RTC_B' : 'RTC_A',
  })),
  pagination: { page: 1, limit: 25, total: STATUSES.length, total_pages: 1, has_more: false },
};
