// What both livekit-client pages (bare-page.ts, bare-naive-page.ts) share: the proxy's create and end calls, and the
// probe's timeline marks. Not a baseline's technique: the same requests every page of the bench makes.
import { probe as sharedProbe } from './probe.js';

export interface CreatedRoom {
  session_id: string;
  client_token: string;
  room_url: string;
  token: string;
}
export const params = new URLSearchParams(location.search);
export const proxy = params.get('proxy') ?? '/api/avatar';
export const probe = sharedProbe as { errors: string[]; end: (() => Promise<void>) | null; marks: Record<string, number> };
/** `?marks=1` (e2e.ts --marks): the same timeline names as the widget page, for comparison. */
const MARKS = params.get('marks') === '1';
export const mark = (name: string) => void (MARKS && (probe.marks[name] ??= performance.now()));

/** POST {proxy}/rooms: a hosted room for the demo agent; throws unless 201. */
export async function createRoom(): Promise<CreatedRoom> {
  const res = await fetch(`${proxy}/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 'agent-demo' }),
  });
  mark(`POST ${proxy}/rooms answered`);
  if (res.status !== 201) throw new Error(`POST /rooms: ${res.status}`);
  return (await res.json()) as CreatedRoom;
}

/** Joins `room` (any livekit-client Room) with the created room's URL and token, marking the timeline. */
export async function join(room: { connect(url: string, token: string): Promise<void> }, s: CreatedRoom) {
  mark('room connecting');
  await room.connect(s.room_url, s.token);
  mark('room connected');
}

/** Sets the probe's `end`: POST {proxy}/sessions/{id}/end with the session's token, then `leave`. */
export function endWith(s: CreatedRoom, leave: () => Promise<void>) {
  probe.end = async () => {
    await fetch(`${proxy}/sessions/${s.session_id}/end`, { method: 'POST', headers: { authorization: `Bearer ${s.client_token}` } });
    await leave();
  };
}
