import type { StorybookConfig } from '@storybook/react-vite';
import type { Plugin } from 'vite';

/**
 * Storybook playground. When `LIVEAI_UPSTREAM_URL` is set (as `npm run dev` does), the companion proxy
 * (`createAvatarProxy`) is mounted inside Storybook's own dev server at `/api/avatar`, in front of the
 * local avatar service, so the "Live" stories run end to end. The API key and LiveKit secret stay here,
 * in Node; the browser only ever sees client tokens and room tokens.
 */
function liveAiProxyPlugin(): Plugin {
  return {
    name: 'liveai-proxy',
    async configureServer(server) {
      const upstream = process.env.LIVEAI_UPSTREAM_URL;
      if (!upstream) return;
      const { default: express } = await import('express');
      const { createAvatarProxy } = await server.ssrLoadModule('/src/server/index.ts');
      const app = express();
      app.use(
        '/api/avatar',
        createAvatarProxy({
          upstream: { baseUrl: upstream, apiKey: process.env.LIVEAI_API_KEY ?? 'dev-key-alice' },
          sessionSecret: process.env.LIVEAI_SESSION_SECRET ?? 'dev-only-session-secret-0123456789abcdef',
          livekit: {
            url: process.env.LIVEKIT_URL ?? 'ws://127.0.0.1:7880',
            apiKey: process.env.LIVEKIT_API_KEY ?? 'devkey',
            apiSecret: process.env.LIVEKIT_API_SECRET ?? 'secret',
          },
          admin: () => true,
        }),
      );
      server.middlewares.use(app);
    },
  };
}

/**
 * theme.css writes the dark palette once; `withAutoTheme` derives `data-theme="auto"` from it (as
 * scripts/build-css.mjs does for dist/styles.css), so the toolbar's "auto" follows the system here too.
 */
function liveAiAutoThemePlugin(): Plugin {
  return {
    name: 'liveai-auto-theme',
    // Runs after Vite's CSS plugin has inlined the @imports of index.css, before it becomes a JS module.
    async transform(code, id) {
      if (!id.split('?')[0]!.endsWith('/src/components/styles/index.css')) return null;
      const { withAutoTheme } = await import('../src/components/styles/auto-theme.mjs');
      return { code: withAutoTheme(code), map: null };
    },
  };
}

/**
 * The preview page (iframe.html, also opened on its own) names the manager's icon, and `/favicon.ico` leads to it:
 * without them a browser asks for a `/favicon.ico` that 404s.
 */
function faviconPlugin(): Plugin {
  return {
    name: 'liveai-favicon',
    configureServer(server) {
      server.middlewares.use('/favicon.ico', (_req, res) => {
        res.writeHead(301, { location: '/favicon.svg' }).end();
      });
    },
  };
}

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  previewHead: (head) => `${head ?? ''}<link rel="icon" type="image/svg+xml" href="./favicon.svg" />`,
  async viteFinal(config) {
    config.plugins = [...(config.plugins ?? []), liveAiProxyPlugin(), liveAiAutoThemePlugin(), faviconPlugin()];
    config.server = { ...config.server, host: '127.0.0.1' };
    return config;
  },
};
export default config;
