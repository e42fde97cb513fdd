// Test page (issue 25): the drop-in widget rendered on the server (react-dom/server, as a Next.js or Remix page
// would), then hydrated in the browser by ssr-widget.client.tsx. Query: ?theme=light|dark.
import { AvatarWidget } from '../../../src/components';

export function App({ theme }: { theme: 'light' | 'dark' }) {
  return <AvatarWidget proxyUrl="/api/avatar" agentId="agent-demo" variant="inline" title="Demo avatar" theme={theme} />;
}
