// Bundle budgets per import scenario (issue 6, anchors.md). Each entry is bundled and minified by esbuild,
// then gzipped. "own code" rows exclude React, the transport SDKs and our two runtime dependencies (zod,
// zustand) — the anchors' "own code only" column; the "with dependencies" rows count zod and zustand too.
const ui = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'livekit-client', '@daily-co/daily-js'];
const deps = [...ui, 'zod', 'zustand', 'zustand/vanilla', 'zustand/traditional'];
module.exports = [
  { name: 'core + hooks, own code', path: 'dist/react.js', import: '*', ignore: deps, gzip: true, limit: '15 KB' },
  { name: 'components, own code', path: 'dist/components.js', import: '*', ignore: deps, gzip: true, limit: '35 KB' },
  { name: 'drop-in widget only, own code', path: 'dist/components.js', import: '{ AvatarWidget }', ignore: deps, gzip: true, limit: '35 KB' },
  { name: 'core + hooks, with zod and zustand', path: 'dist/react.js', import: '*', ignore: ui, gzip: true },
  { name: 'components, with zod and zustand', path: 'dist/components.js', import: '*', ignore: ui, gzip: true },
  { name: 'styles.css', path: 'dist/styles.css', gzip: true, limit: '6 KB' },
];
