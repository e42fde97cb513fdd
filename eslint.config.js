import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Layering: imports only go down core ← react ← components ← element;
 * server and emulator import only core. Core never imports React, a transport SDK (except its
 * adapter file), Express or Node built-ins. `src/shared` holds the neutral helpers every side may import
 * (core, server, emulator alike), so it imports nothing of the project but itself and no package or built-in
 * that a browser or Node lacks. A wrong import fails `npm run lint` and so CI.
 */
const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'http',
  'https',
  'net',
  'crypto',
  'os',
  'child_process',
  'stream',
  'url',
  'util',
  'events',
  'buffer',
  'zlib',
];
const pattern = (group, message) => ({ group, message });
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const notReact = pattern(['react', 'react-dom', 'react/*', 'react-dom/*'], 'core must not import React');
const notSdk = pattern(['livekit-client', '@daily-co/daily-js'], 'transport SDKs are imported only inside their adapter folder');
const notServer = pattern(
  ['express', 'multer', 'jose', 'pino', 'livekit-server-sdk', '@livekit/rtc-node', 'sharp', 'ws', 'express-rate-limit'],
  'server-only packages stay out of browser layers',
);
// A regex (not gitignore-style groups), so relative files named like a built-in (./events, ./stream) stay allowed.
const notNode = {
  regex: `^(node:.+|${nodeBuiltins.filter((b) => !b.includes('*')).join('|')})(/.*)?$`,
  message: 'browser layers must not import Node built-ins',
};
// Other layers reach the core only through its entries: the public ones (index = `liveai-kit`, validation =
// `liveai-kit/schemas`, the two transport entries), the one internal entry (internal.ts, not a package entry) and
// entry-types.ts, the list of core types the UI entries re-export (types only).
const coreEntries = {
  regex: '(^|/)core/(?!(index|validation|internal|entry-types|transports/livekit|transports/daily)$)',
  message:
    'import the core only through its entries: core/index, core/validation, core/transports/livekit|daily, core/internal, or core/entry-types (types)',
};
const up = (...layers) =>
  pattern(
    layers.flatMap((l) => [`**/${l}`, `**/${l}/*`, `**/${l}/**`]),
    `imports only go down the layers: core, react, components, element; server and emulator import only core`,
  );

export default tseslint.config(
  {
    ignores: ['dist/**', 'packages/*/dist/**', 'storybook-static/**', 'node_modules/**', '.cache/**', 'test-results/**', '.api-report/**'],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Files are cut by concept, not by length; a source file past ~500 lines is worth a look, never a failure.
    files: ['src/**'],
    rules: { 'max-lines': ['warn', { max: 500, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The Rules of Hooks and complete effect dependencies, wherever hooks are written.
    files: ['src/react/**', 'src/components/**', 'src/element/**', 'stories/**', 'test/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['src/shared/**'],
    rules: restrict(notReact, notSdk, notServer, notNode, up('core', 'react', 'components', 'element', 'server', 'emulator', 'testing')),
  },
  {
    files: ['src/core/**'],
    rules: restrict(notReact, notSdk, notServer, notNode, up('react', 'components', 'element', 'server', 'emulator', 'testing')),
  },
  // An adapter folder may import its own SDK, never the other one.
  ...[
    ['livekit', '@daily-co/daily-js'],
    ['daily', 'livekit-client'],
  ].map(([folder, other]) => ({
    files: [`src/core/transports/${folder}/**`],
    rules: restrict(
      notReact,
      notServer,
      notNode,
      pattern([other], 'each transport adapter imports only its own SDK'),
      up('react', 'components', 'element', 'server', 'emulator'),
    ),
  })),
  { files: ['src/react/**'], rules: restrict(coreEntries, notSdk, notServer, notNode, up('components', 'element', 'server', 'emulator')) },
  { files: ['src/components/**'], rules: restrict(coreEntries, notSdk, notServer, notNode, up('element', 'server', 'emulator')) },
  { files: ['src/element/**'], rules: restrict(coreEntries, notSdk, notServer, notNode, up('server', 'emulator')) },
  {
    files: ['src/testing/**'],
    rules: restrict(coreEntries, notSdk, notServer, notNode, up('react', 'components', 'element', 'server', 'emulator')),
  },
  { files: ['src/server/**'], rules: restrict(coreEntries, notReact, notSdk, up('react', 'components', 'element', 'emulator', 'testing')) },
  { files: ['src/emulator/**'], rules: restrict(coreEntries, notReact, notSdk, up('react', 'components', 'element', 'server', 'testing')) },
  // Source lines stay readable in a diff: at most 140 characters (Prettier wraps code; long strings are split by hand).
  { files: ['src/**/*.{ts,tsx}'], rules: { 'max-len': ['error', { code: 140, ignoreUrls: true }] } },
);
