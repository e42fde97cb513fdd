// Test page of widget-polish.test.ts: the inline drop-in widget against the real proxy, as an operator would set it
// up (a name, a picture, Change look). Query: ?theme=light|dark, ?slowCreate=MS (the create call answers after MS),
// ?createStatus=504 (with slowCreate: the proxy's time-out answer instead of the real one), ?lang=es|fr|de|ja|ar.
// window.__shifts lists the page's layout shifts that came without recent input (what CLS sums), with what moved.
import '../../../src/core/transports/livekit';
import { createRoot } from 'react-dom/client';
import { AvatarWidget } from '../../../src/components';
import type { Phase } from '../../../src/core/session/types';
import '../../../src/components/styles/index.css';
import * as translations from '../../../src/components/i18n/translations';

const w = window as unknown as {
  __shifts: { value: number; at: number; moved: string[] }[];
  __phases: Phase[];
  __errors: string[];
};
w.__shifts = [];
w.__phases = [];
w.__errors = [];
new PerformanceObserver((list) => {
  type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node | null }[] };
  for (const e of list.getEntries() as Shift[]) {
    if (e.hadRecentInput) continue;
    const moved = e.sources.map((s) => (s.node instanceof Element ? s.node.className || s.node.tagName : String(s.node?.nodeName)));
    w.__shifts.push({ value: e.value, at: e.startTime, moved });
  }
}).observe({ type: 'layout-shift', buffered: true });

// The agent's picture: a plain portrait drawn as SVG (no network).
const poster =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"><rect width="368" height="560" fill="#4a5a8c"/>' +
      '<circle cx="184" cy="210" r="90" fill="#e8c4a0"/><rect x="74" y="330" width="220" height="260" rx="100" fill="#2b3350"/></svg>',
  );

const params = new URLSearchParams(location.search);
const slowCreate = Number(params.get('slowCreate') ?? 0);
const createStatus = Number(params.get('createStatus') ?? 0);
// Only the create call is slowed (or answered with the proxy's time-out), as a slow avatar service would.
const slowFetch: typeof fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (slowCreate && init?.method === 'POST' && /\/(rooms|sessions)$/.test(new URL(url, location.href).pathname)) {
    await new Promise((r) => setTimeout(r, slowCreate));
    if (createStatus)
      return new Response(JSON.stringify({ detail: 'the avatar service did not answer within 15000 ms' }), {
        status: createStatus,
        headers: { 'content-type': 'application/json' },
      });
  }
  return fetch(input, init);
};

createRoot(document.getElementById('root')!).render(
  <AvatarWidget
    proxyUrl="/api/avatar"
    agentId="agent-demo"
    variant="inline"
    title="Ada"
    imageUrl={poster}
    imageSwapper
    theme={(params.get('theme') as 'light' | 'dark' | null) ?? 'light'}
    options={{ fetch: slowFetch }}
    messages={translations[params.get('lang') as 'es' | 'fr' | 'de' | 'ja' | 'ar']}
    onPhaseChange={(p) => w.__phases.push(p)}
    onError={(e) => w.__errors.push(`${e.code}: ${e.detail}`)}
  />,
);
