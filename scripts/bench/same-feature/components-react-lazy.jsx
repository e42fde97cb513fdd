// Same-feature page, @livekit/components-react with code splitting: the page the components-react docs' app would
// be once its author splits the call off with React.lazy. First load is React and a Start button; the call part
// (components-react-call.jsx: LiveKitRoom, VideoTrack, RoomAudioRenderer, useDataChannel, with livekit-client) loads
// on Start, while the create call is in flight. The fair twin of our pages, which load the transport on start too.
import { Suspense, lazy, useState } from 'react';
import { createRoot } from 'react-dom/client';

const Call = lazy(() => import('./components-react-call.jsx'));

function App() {
  const [joined, setJoined] = useState(null);
  const start = async () => {
    void import('./components-react-call.jsx'); // fetched while the create call runs
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
