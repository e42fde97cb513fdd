import 'liveai-kit/styles.css';
import 'liveai-kit/livekit';
import { useEffect } from 'react';
import { AvatarWidget } from 'liveai-kit/components';

type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };

function probe(): Probe {
  const w = window as unknown as { __liveai?: Probe };
  return (w.__liveai ??= { phases: [], errors: [], lines: [] });
}

export default function Home() {
  // Marks the page hydrated (the server-rendered Start button shows before its click handler exists).
  useEffect(() => void probe(), []);
  return (
    <main>
      <h1>Widget page</h1>
      <AvatarWidget
        proxyUrl="/api/avatar"
        agentId="agent-demo"
        variant="inline"
        title="Demo avatar"
        onPhaseChange={(p) => probe().phases.push(p)}
        onError={(e) => probe().errors.push({ code: e.code, detail: e.detail })}
        onTranscript={(l) => probe().lines.push(l.text)}
      />
    </main>
  );
}
