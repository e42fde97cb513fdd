// The widget of every consumer web app's widget page (prepare.mjs copies this file into each app): the widget, with
// what it reports recorded on `window.__liveai` for the test to read.
import { AvatarWidget } from 'liveai-kit/components';

type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };

/** The record on `window.__liveai`, made on first use (never during server rendering). */
export function probe(): Probe {
  const w = window as unknown as { __liveai?: Probe };
  return (w.__liveai ??= { phases: [], errors: [], lines: [] });
}

export function ProbedWidget() {
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
