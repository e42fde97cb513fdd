// The create call of the hand-written same-feature pages (components-react*.jsx, react-livekit.jsx): POST the proxy's
// /rooms for the demo agent; resolves with its answer (room_url, token, session_id, client_token).
export async function createRoom() {
  const res = await fetch('/api/avatar/rooms', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 'agent-demo' }),
  });
  return res.json();
}
