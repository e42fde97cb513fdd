import 'liveai-kit/livekit';
import 'liveai-kit/styles.css';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from 'liveai-kit/components';

type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };
const probe: Probe = ((window as unknown as { __liveai: Probe }).__liveai = { phases: [], errors: [], lines: [] });

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    title="Demo avatar"
    onPhaseChange={(p) => probe.phases.push(p)}
    onError={(e) => probe.errors.push({ code: e.code, detail: e.detail })}
    onTranscript={(l) => probe.lines.push(l.text)}
  />,
);
