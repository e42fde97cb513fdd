// The consumer projects: what each installs (tarballs of this repo + registry packages) and from which template.
// Shared by prepare.mjs (installs, outside the namespace) and the tests (build and run, inside it).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// OUTSIDE the repository: a project inside it would resolve packages from the repo's own node_modules (Node and
// bundlers walk up the tree), and a missing package would go unnoticed. In the system's temp folder (one per
// checkout) it is removed once the run is over (`removeConsumerDir`, called by scripts/test.mjs); a folder you name
// with LIVEAI_CONSUMER_DIR is yours and is kept, with its installs, between runs.
const TEMP_PARENT = join(tmpdir(), 'liveai-kit-consumer');
export const CONSUMER_DIR =
  process.env.LIVEAI_CONSUMER_DIR ?? join(TEMP_PARENT, createHash('sha256').update(ROOT).digest('hex').slice(0, 8));

/** Removes the consumer projects from the system's temp folder (and the parent folder once empty); keeps LIVEAI_CONSUMER_DIR. */
export function removeConsumerDir() {
  if (process.env.LIVEAI_CONSUMER_DIR) return;
  rmSync(CONSUMER_DIR, { recursive: true, force: true });
  try {
    rmdirSync(TEMP_PARENT);
  } catch {
    // another checkout's projects are still there
  }
}
export const PACKS_DIR = resolve(CONSUMER_DIR, 'packs');

const react = { react: '^19.2.0', 'react-dom': '^19.2.0', '@types/react': '^19.2.0', '@types/react-dom': '^19.2.0' };
const next = { next: '16.4.6', typescript: '~5.9.3', '@types/node': '^22.19.0', ...react };

/**
 * The code of a docs example: the fenced block of `doc` (relative to the repo) whose first line is `// <file>` (or
 * `<!-- <file> -->` in markup such as a Vue component), so a consumer app runs exactly what the docs teach.
 */
export function docsExample(doc, file) {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const names = [`// ${file}\n`, `<!-- ${file} -->\n`];
  const block = text.split('```').find((b) => names.some((n) => b.replace(/^\w*\n/, '').startsWith(n)));
  if (!block) throw new Error(`${doc} has no example starting with "// ${file}"`);
  return block.replace(/^\w*\n/, '');
}

/** A file of test/consumer/apps/shared, which prepare.mjs copies into the apps that list it. */
const shared = (file) => readFileSync(join(ROOT, 'test/consumer/apps/shared', file), 'utf8');

export const APPS = {
  // Next.js App Router with ONLY livekit-client, then with ONLY @daily-co/daily-js.
  'next-livekit': {
    template: 'next',
    packs: ['liveai-kit'],
    registry: { ...next, 'livekit-client': '^2.23.0' },
    files: {
      'app/transport.ts': "import 'liveai-kit/livekit';\n",
      'app/auth.ts': shared('auth.ts'),
      'app/ProbedWidget.tsx': shared('ProbedWidget.tsx'),
    },
  },
  'next-daily': {
    template: 'next',
    packs: ['liveai-kit'],
    registry: { ...next, '@daily-co/daily-js': '^0.92.2' },
    files: {
      'app/transport.ts': "import 'liveai-kit/daily';\n",
      'app/auth.ts': shared('auth.ts'),
      'app/ProbedWidget.tsx': shared('ProbedWidget.tsx'),
    },
  },
  // Vite + React, served by Express with createAvatarProxy.
  vite: {
    template: 'vite',
    packs: ['liveai-kit'],
    files: { 'src/ProbedWidget.tsx': shared('ProbedWidget.tsx') },
    registry: {
      ...react,
      vite: '^8.0.0',
      '@vitejs/plugin-react': '^6.0.0',
      'livekit-client': '^2.23.0',
      express: '^5.2.0',
      multer: '^2.0.2',
      'express-rate-limit': '^8.2.0',
      'livekit-server-sdk': '^2.19.2',
      typescript: '~5.9.3',
    },
  },
  // A strict TypeScript Node server (module: nodenext) against every entry, plus CommonJS require().
  'node-ts': {
    template: 'node-ts',
    packs: ['liveai-kit'],
    registry: {
      typescript: '~5.9.3',
      '@types/node': '^22.19.0',
      ...react,
      express: '^5.2.0',
      '@types/express': '^5.0.6',
      multer: '^2.0.2',
      '@types/multer': '^2.0.0',
      'express-rate-limit': '^8.2.0',
      pino: '^10.4.0',
      'livekit-server-sdk': '^2.19.2',
      'livekit-client': '^2.23.0',
      '@daily-co/daily-js': '^0.92.2',
      '@livekit/rtc-node': '^1.1.0',
      ws: '^8.18.3',
      '@types/ws': '^8.18.1',
    },
  },
  // React Router framework mode (react-router-serve and react-router dev): the proxy as a resource route on
  // createAvatarHandler (docs/proxy.md's recipe, taken from the docs), the widget page, and the custom hooks UI of
  // docs/core.md taken from the docs. Typechecked with skipLibCheck: false.
  'react-router': {
    template: 'react-router',
    packs: ['liveai-kit'],
    registry: {
      ...react,
      'react-router': '8.4.0',
      '@react-router/dev': '8.4.0',
      '@react-router/node': '8.4.0',
      '@react-router/serve': '8.4.0',
      isbot: '^5.1.0',
      vite: '^8.0.0',
      typescript: '~5.9.3',
      '@types/node': '^22.19.0',
      'livekit-client': '^2.23.0',
    },
    files: {
      'app/CustomAvatar.tsx': docsExample('docs/core.md', 'CustomAvatar.tsx'),
      'app/ArabicAvatar.tsx': docsExample('docs/core.md', 'ArabicAvatar.tsx'),
      'app/routes/api.avatar.$.ts': docsExample('docs/proxy.md', 'app/routes/api.avatar.$.ts'),
      'app/auth.server.ts': shared('auth.ts'),
      'app/ProbedWidget.tsx': shared('ProbedWidget.tsx'),
    },
  },
  // Vue 3 + Vite with liveai-kit/element and NO React installed (issue 39.1), served by Express with createAvatarProxy;
  // its vite.config.ts and App.vue are docs/components.md's ("Vue, Svelte and other bundled apps without React").
  'vue-element': {
    template: 'vue-element',
    packs: ['liveai-kit'],
    registry: {
      vue: '^3.5.0',
      vite: '^8.0.0',
      '@vitejs/plugin-vue': '^6.0.0',
      'livekit-client': '^2.23.0',
      express: '^5.2.0',
      multer: '^2.0.2',
      'express-rate-limit': '^8.2.0',
      'livekit-server-sdk': '^2.19.2',
      typescript: '~5.9.3',
    },
    files: {
      'vite.config.ts': docsExample('docs/components.md', 'vite.config.ts'),
      'src/App.vue': docsExample('docs/components.md', 'src/App.vue'),
    },
  },
  // Astro with the Node adapter (issue 39.7): docs/frameworks.md's astro.config.mjs and endpoint on
  // createAvatarHandler (with clientAddress), and a React island with the widget; built and served from the tarball.
  astro: {
    template: 'astro',
    packs: ['liveai-kit'],
    registry: {
      ...react,
      astro: '^7.3.0',
      '@astrojs/react': '^7.0.0',
      '@astrojs/node': '^11.1.0',
      'livekit-client': '^2.23.0',
      'livekit-server-sdk': '^2.19.2',
      typescript: '~5.9.3',
    },
    files: {
      'astro.config.mjs': docsExample('docs/frameworks.md', 'astro.config.mjs'),
      'src/pages/api/avatar/[...path].ts': docsExample('docs/frameworks.md', 'src/pages/api/avatar/[...path].ts'),
      'src/islands/Avatar.tsx': docsExample('docs/frameworks.md', 'src/islands/Avatar.tsx'),
      'src/islands/ProbedWidget.tsx': shared('ProbedWidget.tsx'),
    },
  },
  // Hono on Node: the proxy on createAvatarHandler with nothing optional installed, typechecked with skipLibCheck: false.
  hono: {
    template: 'hono',
    packs: ['liveai-kit'],
    registry: { hono: '^4.13.0', '@hono/node-server': '^2.1.0', typescript: '~5.9.3', '@types/node': '^22.19.0' },
  },
  // liveai-kit/server with nothing optional installed (peer checks at creation).
  'server-bare': { template: null, packs: ['liveai-kit'], registry: {} },
  // `npx liveai-emulator` from its tarball, nothing else.
  emulator: { template: null, packs: ['liveai-emulator'], registry: {} },
  // Both packages, as a project that uses liveai-kit installs the local service (issue 39.2): `npx liveai-emulator`,
  // and `liveai-kit/emulator` finding its packages through liveai-emulator's dependencies.
  'emulator-kit': { template: null, packs: ['liveai-kit', 'liveai-emulator'], registry: {} },
  // Package linters.
  tools: { template: null, packs: [], registry: { publint: '0.3.25', '@arethetypeswrong/cli': '0.18.5' } },
};
