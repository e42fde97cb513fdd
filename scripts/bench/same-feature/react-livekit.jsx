// Same-feature page, hand-written with React and livekit-client only (no component library): the avatar's video
// and audio, the transcript (the service's events on the `liveai` data topic), chat (the `chat-msg` app message on
// the same topic) and an End button, through the same proxy. The call part (react-livekit-call.jsx, with
// livekit-client) is split off with React.lazy and loads on Start, like the code-split components-react page.
// The floor of what the feature set costs in a React app.
import { Suspense, lazy, useState } from 'react';
import { createRoot } from 'react-dom/client';

const Call = lazy(() => import('./react-livekit-call.jsx'));

function App() {
  const [joined, setJoined] = useState(null);
  const start = async () => {
    void import('./react-livekit-call.jsx'); // fetched while the create call runs
    const res = await fetch('/api/avatar/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo' }),
    });
    setJoined(await res.json());
  };
  if (!joined) return <button onClick={start}>Start call</button>;
  return (
    <Suspense fallback={<p>Connecting…</p>}>
      <Call joined={joined} onEnded={() => setJoined(null)} />
    </Suspense>
  );
}

createRoot(document.getElementById('root')).render(<App />);
