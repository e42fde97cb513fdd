// Hydrates the server-rendered widget of ssr-widget.tsx. Recoverable errors (a hydration mismatch among them) and
// the moment hydration committed go into window.__ssr for the test.
import '../../../src/core/transports/livekit';
import { hydrateRoot } from 'react-dom/client';
import { App } from './ssr-widget';
import '../../../src/components/styles/index.css';

const probe = { hydrated: false, errors: [] as string[], serverHtml: document.getElementById('root')!.innerHTML };
(window as unknown as { __ssr: typeof probe }).__ssr = probe;
const theme = new URLSearchParams(location.search).get('theme') === 'dark' ? 'dark' : 'light';
hydrateRoot(document.getElementById('root')!, <App theme={theme} />, {
  onRecoverableError: (e) => void probe.errors.push(String(e)),
  onCaughtError: (e) => void probe.errors.push(String(e)),
  onUncaughtError: (e) => void probe.errors.push(String(e)),
});
requestAnimationFrame(() => (probe.hydrated = true));
