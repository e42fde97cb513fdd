// The shell of the code-split same-feature pages (components-react-lazy.jsx, react-livekit.jsx): a Start button whose
// click asks the proxy for a room while the call part (`load`, a dynamic import of a module whose default export is
// `Call({ joined, onEnded })`) downloads; React.lazy renders it once both are in.
import { Suspense, lazy, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createRoom } from './create-room.js';

export function mountLazyCall(load) {
  const Call = lazy(load);
  function App() {
    const [joined, setJoined] = useState(null);
    const start = async () => {
      void load(); // fetched while the create call runs
      setJoined(await createRoom());
    };
    if (!joined) return <button onClick={start}>Start call</button>;
    return (
      <Suspense fallback={<p>Connecting…</p>}>
        <Call joined={joined} onEnded={() => setJoined(null)} />
      </Suspense>
    );
  }
  createRoot(document.getElementById('root')).render(<App />);
}
