// Same-feature page, liveai-kit hooks and primitives: the avatar's video and audio (AvatarStage; the session plays
// the audio), the transcript (TranscriptPanel), chat (ChatInput) and an End button, through the proxy. The twin of
// the components-react page, primitives against primitives (the widget page adds status, the mic, a countdown and
// explained errors). Plain JSX (bundled by esbuild, not type-checked) that imports the built package.
import '../../../dist/livekit.js';
// The stylesheets of the components it shows, as docs/components.md says: counted in the page's first load.
import '../../../dist/styles/base.css';
import '../../../dist/styles/widget.css';
import { createRoot } from 'react-dom/client';
import { AvatarSessionProvider, useSession } from '../../../dist/react.js';
import { AvatarStage, TranscriptPanel, ChatInput } from '../../../dist/components.js';

function Call() {
  const { phase, start, endSession } = useSession();
  if (phase === 'idle' || phase === 'ended') return <button onClick={() => void start()}>Start call</button>;
  return (
    <>
      <AvatarStage />
      <TranscriptPanel />
      <ChatInput />
      <button onClick={() => void endSession()}>End</button>
    </>
  );
}

const options = { proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' } };
createRoot(document.getElementById('root')).render(
  <AvatarSessionProvider options={options}>
    <Call />
  </AvatarSessionProvider>,
);
