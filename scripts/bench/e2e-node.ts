// The rtc-node baseline of the real-LiveKit bench (e2e.ts): an informative lower bound without a browser or React.
// POST {proxy}/rooms → rtc-node join → first decoded frame; POST control update-image → image_change_complete.
import { Room, RoomEvent, TrackKind, VideoStream, type RemoteTrack } from '@livekit/rtc-node';

/** The baseline: no browser, no React — the proxy's REST routes and an rtc-node subscriber. */
export async function nodeRun(
  base: string,
  image: string,
): Promise<{ firstFrameMs: number; imageChangeMs: number; marks: Record<string, number> }> {
  const t0 = performance.now();
  const marks: Record<string, number> = {};
  const mark = (name: string) => void (marks[name] ??= Math.round(performance.now() - t0));
  const res = await fetch(`${base}/api/avatar/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 'agent-demo' }),
  });
  const s = (await res.json()) as { session_id: string; client_token: string; room_url: string; token: string };
  if (res.status !== 201) throw new Error(`POST /rooms: ${res.status}`);
  mark('POST /api/avatar/rooms answered');
  const room = new Room();
  const events: Array<{ at: number; type: string }> = [];
  let firstFrameAt = 0;
  const gotFrame = new Promise<void>((ok) =>
    room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      if (track.kind !== TrackKind.KIND_VIDEO) return;
      mark('video track');
      void (async () => {
        const reader = new VideoStream(track).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          if (!firstFrameAt) {
            firstFrameAt = performance.now();
            ok();
          }
        }
      })();
    }),
  );
  room.on(RoomEvent.DataReceived, (payload: Uint8Array) => {
    try {
      const type = (JSON.parse(new TextDecoder().decode(payload)) as { type: string }).type;
      events.push({ at: performance.now(), type });
      mark(`event ${type}`);
    } catch {
      /* not an event */
    }
  });
  try {
    await room.connect(s.room_url, s.token, { autoSubscribe: true, dynacast: false });
    mark('room connected');
    await Promise.race([gotFrame, new Promise((_, no) => setTimeout(() => no(new Error('no frame within 60 s')), 60_000))]);
    const firstFrameMs = firstFrameAt - t0;
    const t1 = performance.now();
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${s.client_token}` };
    const c = await fetch(`${base}/api/avatar/sessions/${s.session_id}/control`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ event: 'update-image', image_base64: image }),
    });
    if (c.status !== 200) throw new Error(`update-image: ${c.status}`);
    const deadline = Date.now() + 30_000;
    let done: { at: number } | undefined;
    while (!(done = events.find((e) => e.at >= t1 && e.type === 'image_change_complete'))) {
      if (Date.now() > deadline) throw new Error('no image_change_complete');
      await new Promise((r) => setTimeout(r, 5));
    }
    await fetch(`${base}/api/avatar/sessions/${s.session_id}/end`, { method: 'POST', headers: auth }).catch(() => {});
    marks['first frame'] = Math.round(firstFrameMs);
    return { firstFrameMs, imageChangeMs: done.at - t1, marks };
  } finally {
    await room.disconnect().catch(() => {});
  }
}
