import type { TranscriptLine } from '../src/core/session/types';

/** A drawn 368×560 portrait (no network needed), as a data URL. */
export const AVATAR_IMAGE = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560" viewBox="0 0 368 560">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b6ee1"/><stop offset="1" stop-color="#1d2240"/></linearGradient></defs>
<rect width="368" height="560" fill="url(#bg)"/>
<path d="M54 560c8-120 62-170 130-170s122 50 130 170z" fill="#2f3b63"/>
<rect x="160" y="330" width="48" height="70" rx="20" fill="#e0a98a"/>
<ellipse cx="184" cy="250" rx="82" ry="100" fill="#f0bf9f"/>
<path d="M100 240c-4-80 46-120 90-120s88 34 80 120c-10-40-40-66-86-70-46 6-76 30-84 70z" fill="#3a2a22"/>
<ellipse cx="152" cy="258" rx="9" ry="11" fill="#2a1d17"/><ellipse cx="216" cy="258" rx="9" ry="11" fill="#2a1d17"/>
<path d="M160 306q24 18 48 0" stroke="#a4553f" stroke-width="6" fill="none" stroke-linecap="round"/>
</svg>`)}`;

/** A second look for the image swapper. */
export const OTHER_IMAGE = AVATAR_IMAGE.replace('%235b6ee1', '%23c2577a');

const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
/** A short conversation. */
export const TRANSCRIPT: TranscriptLine[] = [
  { id: 1, role: 'agent', text: 'Hi! I am Ada. What would you like to talk about?', at: t0 },
  { id: 2, role: 'user', text: 'Can you tell me about your opening hours?', at: t0 + 4000 },
  { id: 3, role: 'agent', text: 'Of course. We are open from 9 to 18 on weekdays and from 10 to 14 on Saturdays.', at: t0 + 7000 },
  { id: 4, role: 'user', text: 'Great, thanks!', at: t0 + 12_000 },
  { id: 5, role: 'agent', text: 'You are welcome. Anything else I can help with?', at: t0 + 14_000 },
];

/** A long conversation to exercise scrolling. */
export const LONG_TRANSCRIPT: TranscriptLine[] = Array.from({ length: 24 }, (_, i) => ({
  id: i + 1,
  role: i % 2 ? 'user' : 'agent',
  text: i % 2 ? `Question number ${(i + 1) / 2}?` : `Answer ${i / 2 + 1}: a longer reply so lines wrap over more than one row in a narrow panel.`,
  at: t0 + i * 3000,
}));

const statuses = ['COMPLETED', 'ACTIVE', 'QUEUED', 'FAILED', 'TIMED_OUT'] as const;
/** Rows for the admin list (spec §2 list items). */
export const ROOMS = statuses.map((s, i) => ({
  agent_id: `agent-${i + 1}`,
  session_id: `room_${(0x5f3a9 + i * 7919).toString(16)}c0ffee${i}`,
  created_at: new Date(t0 - i * 3_600_000).toISOString(),
  session_status: s,
  credits_used: s === 'COMPLETED' ? 1.25 + i : null,
}));
export const SESSIONS = statuses.map((s, i) => ({
  session_id: `sess_${(0x9a1f + i * 104729).toString(16)}beef${i}`,
  created_at: new Date(t0 - i * 5_400_000).toISOString(),
  session_status: s,
  credits_used: s === 'COMPLETED' ? 0.5 * (i + 1) : null,
  provider: i % 2 ? ('RTC_B' as const) : ('RTC_A' as const),
}));
