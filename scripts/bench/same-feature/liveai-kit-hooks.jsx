import '../../../dist/livekit.js';
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
createRoot(document.getElementById('root')).render(
  <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', agentId: 'agent-demo' }}>
    <Call />
  </AvatarSessionProvider>,
);
