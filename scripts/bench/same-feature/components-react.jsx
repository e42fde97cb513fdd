// Same-feature page, @livekit/components-react: the avatar's video and audio, the transcript (the service's events
// on the `liveai` data topic), chat (the `chat-msg` app message on the same topic) and an End button, through the
// same proxy.
// The smallest app that does what the widget does, written the way the library's docs show: everything imported
// statically (the call part, components-react-call.jsx, is the same code the React.lazy twin loads on Start). Plain
// JSX (bundled by esbuild, not type-checked), like its liveai-kit twin that imports the built package.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createRoom } from './create-room.js';
import Call from './components-react-call.jsx';

function App() {
  const [joined, setJoined] = useState(null);
  const start = async () => {
    setJoined(await createRoom());
  };
  if (!joined) return <button onClick={start}>Start call</button>;
  return <Call joined={joined} onEnded={() => setJoined(null)} />;
}

createRoot(document.getElementById('root')).render(<App />);
