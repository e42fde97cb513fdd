'use client';
import './transport';
import { AvatarWidget } from 'liveai-kit/components';

type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };

function probe(): Probe {
  const w = window as unknown as { __liveai?: Probe };
  return (w.__liveai ??= { phases: [], errors: [], lines: [] });
}

export default function Widget() {
  return (
    <AvatarWidget
      proxyUrl="/api/avatar"
      agentId="agent-demo"
      variant="inline"
      title="Demo avatar"
      onPhaseChange={(p) => probe().phases.push(p)}
      onError={(e) => probe().errors.push({ code: e.code, detail: e.detail })}
      onTranscript={(l) => probe().lines.push(l.text)}
    />
  );
}
