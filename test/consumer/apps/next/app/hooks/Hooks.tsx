'use client';
import '../transport';
import { AvatarSessionProvider, useSession } from 'liveai-kit/react';

function Status() {
  const { phase } = useSession();
  return <p data-testid="phase">phase: {phase}</p>;
}

export default function Hooks() {
  return (
    <AvatarSessionProvider options={{ proxyUrl: '/api/avatar', flow: { kind: 'room', agentId: 'agent-demo' } }}>
      <Status />
    </AvatarSessionProvider>
  );
}
