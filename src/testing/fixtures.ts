import type { AvatarEvent, ClientSession, RoomList, SessionList } from '../core/schemas';
import type { TranscriptLine } from '../core/session/types';

const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);

/** A short conversation as transcript lines (ids 1..6, one line every 4 s). */
export const sampleTranscript: TranscriptLine[] = [
  { id: 1, role: 'agent', text: 'Hi! I am your avatar guide. What would you like to talk about?', at: T0 },
  { id: 2, role: 'user', text: 'Can you tell me what you can do?', at: T0 + 4000 },
  { id: 3, role: 'agent', text: 'I can answer questions, change my look, and keep you company while you browse.', at: T0 + 8000 },
  { id: 4, role: 'user', text: 'Change your look to something cheerful.', at: T0 + 12000 },
  { id: 5, role: 'agent', text: 'Imagining a new look for you now.', at: T0 + 16000 },
  { id: 6, role: 'user', text: 'That looks great, thanks!', at: T0 + 20000 },
];

/** The same conversation as spec §6 events, with an image change in the middle. */
export const sampleEvents: AvatarEvent[] = [
  { type: 'bot_ready' },
  ...sampleTranscript.slice(0, 5).map(
    (l): AvatarEvent => (l.role === 'user' ? { type: 'user_transcription', transcription: l.text } : { type: 'agent_transcription', transcription: l.text }),
  ),
  { type: 'image_change_requested' },
  { type: 'image_created' },
  { type: 'image_change_complete' },
  { type: 'user_transcription', transcription: sampleTranscript[5]!.text },
];

/** A session handle like the proxy returns for a hosted room (rtc-b). Tokens are placeholders. */
export const sampleClientSession: ClientSession = {
  session_id: 'sess_sample',
  client_token: 'ct_sample',
  transport: 'rtc-b',
  room_url: 'https://rooms.fake.test/room-sample',
  token: 'room-token-sample',
  image_url: 'https://images.fake.test/agent.png',
};

const iso = (minutesAgo: number) => new Date(T0 - minutesAgo * 60_000).toISOString();

/** A page of `GET /rooms` (spec §4.1). */
export const sampleRoomList: RoomList = {
  rooms: [
    { agent_id: 'agent-demo', session_id: 'sess_r3', created_at: iso(5), session_status: 'ACTIVE', credits_used: null },
    { agent_id: 'agent-demo', session_id: 'sess_r2', created_at: iso(60), session_status: 'COMPLETED', credits_used: 2.5 },
    { agent_id: 'agent-cartoon', session_id: 'sess_r1', created_at: iso(180), session_status: 'FAILED', credits_used: null },
  ],
  pagination: { page: 1, limit: 25, total: 3, total_pages: 1, has_more: false },
};

/** A page of `GET /sessions` (spec §4.3). */
export const sampleSessionList: SessionList = {
  sessions: [
    { session_id: 'sess_s3', created_at: iso(2), session_status: 'QUEUED', credits_used: null, provider: 'RTC_A' },
    { session_id: 'sess_s2', created_at: iso(30), session_status: 'COMPLETED', credits_used: 1.25, provider: 'RTC_A' },
    { session_id: 'sess_s1', created_at: iso(90), session_status: 'TIMED_OUT', credits_used: null, provider: 'RTC_B' },
  ],
  pagination: { page: 1, limit: 25, total: 3, total_pages: 1, has_more: false },
};
