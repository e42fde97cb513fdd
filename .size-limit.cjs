// Bundle budgets per import scenario (issue 6, anchors.md), measured on the built package (dist/).
// Each row is bundled and minified by esbuild, then gzipped. Only React (react, react-dom, jsx-runtime) and the two
// transport SDKs (livekit-client, @daily-co/daily-js) are excluded; our runtime dependencies valibot, zod and zustand COUNT.
//
// "first load" rows measure what a page downloads when it imports the entry: the entry and everything it imports
// statically. Chunks reached only through `import()` are loaded on demand and get their own rows below:
// the transport adapters and the call-path schemas (valibot checks of what a call receives) when a session starts,
// image preparation (`prepareImage`) on its first call, and the validation chunk (every schema, `liveai-kit/schemas`)
// only when the app sends a control event or lists sessions. scripts/bench/size.mjs reads these same rows.
const ui = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'];
const transports = ['livekit-client', '@daily-co/daily-js'];
const ignore = [...ui, ...transports];
const ownOnly = [...ignore, 'zod', 'zod/mini', 'zustand', 'zustand/vanilla', 'zustand/traditional'];

/** esbuild plugin: leave `import()` targets out of the bundle (they are separate, on-demand chunks). */
const onDemandExternal = {
  name: 'on-demand-chunks-external',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};
const firstLoad = (config) => ({ ...config, format: 'esm', plugins: [...(config.plugins ?? []), onDemandExternal] });
/** Both entries, every export, in one bundle (size-limit's `import: '*'` supports one namespace per check). */
const everyExport = (config) => ({
  ...config,
  format: 'esm',
  entryPoints: undefined,
  stdin: {
    contents: "import * as core from './dist/index.js';\nimport * as hooks from './dist/react.js';\nconsole.log(core, hooks);\n",
    resolveDir: __dirname,
    sourcefile: 'core-and-hooks.js',
  },
});
const coreAndHooks = { path: ['dist/index.js', 'dist/react.js'] };

module.exports = [
  {
    name: 'core + hooks, first load (liveai-kit + liveai-kit/react, every export; zod and zustand counted)',
    ...coreAndHooks,
    ignore,
    modifyEsbuildConfig: (c) => firstLoad(everyExport(c)),
    gzip: true,
    limit: '15 KB',
  },
  {
    name: 'components, first load (every export; zod and zustand counted)',
    path: 'dist/components.js',
    import: '*',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
    limit: '35 KB',
  },
  {
    name: 'AvatarWidget only, first load (zod and zustand counted)',
    path: 'dist/components.js',
    import: '{ AvatarWidget }',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
    limit: '35 KB',
  },
  {
    name: 'core + hooks, first load, own code only (zod and zustand excluded too; informative)',
    ...coreAndHooks,
    ignore: ownOnly,
    modifyEsbuildConfig: (c) => firstLoad(everyExport(c)),
    gzip: true,
  },
  {
    name: 'core + hooks, everything incl. on-demand chunks (informative)',
    ...coreAndHooks,
    ignore,
    modifyEsbuildConfig: everyExport,
    gzip: true,
  },
  {
    name: 'on a control event or a session list: validation chunk (liveai-kit/schemas: valibot + every schema)',
    path: 'dist/schemas.js',
    import: '*',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
  },
  {
    name: 'on session start: call-path schemas chunk and what it imports (valibot checks of what a call receives)',
    path: 'dist/chunks/call-path-????????.js',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
  },
  {
    name: 'on session start, LiveKit: adapter chunk and what it imports (valibot event checks; livekit-client excluded)',
    path: 'dist/chunks/livekit-adapter-????????.js',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
  },
  {
    name: 'on session start, Daily: adapter chunk and what it imports (valibot event checks; daily-js excluded)',
    path: 'dist/chunks/daily-adapter-????????.js',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
  },
  {
    name: 'on the first prepareImage() call: image preparation chunk and what it imports (canvas crop + encode)',
    path: 'dist/chunks/prepare-canvas-????????.js',
    ignore,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
  },
  {
    name: 'drop-in widget page: <liveai-avatar> script, first load (Preact bundled in as React)',
    path: 'dist/standalone/liveai-avatar.js',
    ignore: transports,
    modifyEsbuildConfig: firstLoad,
    gzip: true,
    limit: '50 KB',
  },
  {
    name: 'one translation: liveai-kit/messages, one language imported (informative; each language tree-shakes alone)',
    path: 'dist/messages.js',
    import: '{ es }',
    ignore,
    gzip: true,
  },
  // Every component family in one file (the admin tables and charts, the meters, the pre-join card, the image swapper,
  // and the widget with its overlays, chips and captions over the picture). A page that shows only some components
  // loads their family files instead (the rows below).
  { name: 'styles.css (every component)', path: 'dist/styles.css', gzip: true, limit: '7 KB' },
  {
    name: 'widget page stylesheets: styles/base.css + styles/widget.css (AvatarWidget and the call components)',
    path: ['dist/styles/base.css', 'dist/styles/widget.css'],
    gzip: true,
    limit: '6 KB',
  },
];
