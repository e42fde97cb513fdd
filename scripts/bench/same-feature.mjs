// Bytes of the same feature set (video + audio, transcript, chat, End) as a React app ships it, built with liveai-kit,
// with @livekit/components-react (as its docs write it, and split with React.lazy) and by hand with React +
// livekit-client (scripts/bench/same-feature/*.jsx). Stylesheets a page imports (our styles.css) count in its first
// load. esbuild bundles each page for the browser
// (ESM, code splitting, minified, production React), so React, react-dom and livekit-client are each in the output
// once; every output file is gzipped. "first load" = the entry and its static imports; "on start" = the chunks a
// call over LiveKit fetches through import() (the rtc-a adapter with livekit-client, the small checks of what the
// call receives) and their static imports. Chunks such a call never downloads are left out and reported apart as
// `never`: the rtc-b adapter with daily-js, image preparation for the image swapper, the control commands, the
// transcript merger (only for rooms that send LiveKit Agents' own transcription), the chroma key (only for a stage
// given `chromaKey`), and the zod schemas
// (`liveai-kit/schemas`), which load only when the service sends something malformed or the app sends a control
// event. The widget e2e test checks that a call downloads none of them.
// Three liveai-kit pages: the headless hooks with the same markup as the components-react page (like for like), the
// hooks with the styled AvatarStage / TranscriptPanel / ChatInput, and the drop-in widget (which also shows status,
// the mic, a countdown and explained errors).
import { gzipSync } from 'node:zlib';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/**
 * Where the gzip bytes of `files` come from, by source (from esbuild's metafile): each file's gzip size shared out
 * over its inputs in proportion to their minified bytes. Sources: a package (react-dom, react and scheduler as
 * "React"), a chunk of the built liveai-kit (`liveai-kit core`, `liveai-kit kernel`, …) or the page's own code.
 */
function parts(outputs, gz, files) {
  const name = (input) => {
    const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input)?.[1];
    if (pkg) return ['react', 'react-dom', 'scheduler'].includes(pkg) ? 'React' : pkg;
    const chunk = /dist[\\/](?:chunks[\\/])?([A-Za-z-]+?)(?:-[\w-]{8})?\.js$/.exec(input)?.[1];
    return chunk ? `liveai-kit ${chunk}` : 'the page';
  };
  const out = {};
  for (const f of files) {
    const inputs = Object.entries(outputs[f].inputs);
    const all = inputs.reduce((a, [, v]) => a + v.bytesInOutput, 0) || 1;
    for (const [input, v] of inputs) out[name(input)] = (out[name(input)] ?? 0) + ((gz[f] ?? 0) * v.bytesInOutput) / all;
  }
  return Object.fromEntries(
    Object.entries(out)
      .map(([k, v]) => [k, Math.round(v)])
      .filter(([, v]) => v >= 50)
      .sort((a, b) => b[1] - a[1]),
  );
}

async function measure(root, entry) {
  const outdir = await mkdtemp(join(tmpdir(), 'liveai-same-feature-'));
  try {
    const r = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      outdir,
      write: true,
      metafile: true,
      platform: 'browser',
      target: 'es2022',
      jsx: 'automatic',
      logLevel: 'error',
      define: { 'process.env.NODE_ENV': '"production"' },
    });
    const outputs = r.metafile.outputs;
    const gz = {};
    for (const f of Object.keys(outputs).filter((f) => f.endsWith('.js')))
      gz[f] = gzipSync(await readFile(join(root, f)), { level: 9 }).length;
    // The page's own output: esbuild marks every import() target as an entry point too, so match the page's path.
    const entryOut = Object.keys(outputs).find((f) => outputs[f].entryPoint === entry);
    const closure = (from, into = new Set()) => {
      const walk = (f) => {
        if (into.has(f)) return;
        into.add(f);
        for (const imp of outputs[f].imports) if (imp.kind === 'import-statement' && outputs[imp.path]) walk(imp.path);
      };
      walk(from);
      return into;
    };
    const first = closure(entryOut);
    const dynamic = [...first].flatMap((f) =>
      outputs[f].imports.filter((i) => i.kind === 'dynamic-import' && outputs[i.path]).map((i) => i.path),
    );
    const unused = (f) => /(^|\/)(daily-adapter|prepare-canvas|schemas|control-commands|transcript-merge|chroma-key)-/.test(f);
    const onCall = new Set();
    for (const d of dynamic.filter((f) => !unused(f))) closure(d, onCall);
    for (const f of first) onCall.delete(f);
    const sum = (fs) => [...fs].reduce((a, f) => a + (gz[f] ?? 0), 0);
    const firstLoad = sum(first);
    const onStart = sum(onCall);
    const never = sum(Object.keys(gz).filter((f) => !first.has(f) && !onCall.has(f)));
    // The stylesheet a page imports (esbuild writes it beside the entry): a <link> in the page's head, so first load.
    let css = 0;
    for (const f of Object.keys(outputs).filter((f) => f.endsWith('.css')))
      css += gzipSync(await readFile(join(root, f)), { level: 9 }).length;
    return {
      total: firstLoad + css + onStart,
      firstLoad: firstLoad + css,
      onStart,
      never,
      css,
      entry: basename(entry),
      firstLoadParts: parts(outputs, gz, first),
    };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

/**
 * `{ ours, hooks, headless, components, componentsLazy, handwritten }`: gzip bytes `{ total, firstLoad, onStart,
 * never, css }` (firstLoad and total include css), and `firstLoadParts` (the first load's JavaScript by source) of the widget page, the hooks + styled parts page, the headless
 * hooks page, the components-react page as its docs write it, the same split with React.lazy, and a hand-written
 * React + livekit-client page (split the same way). Needs a built dist/.
 */
export async function measureSameFeature(root) {
  const dir = 'scripts/bench/same-feature';
  return {
    ours: await measure(root, `${dir}/liveai-kit.jsx`),
    hooks: await measure(root, `${dir}/liveai-kit-hooks.jsx`),
    headless: await measure(root, `${dir}/liveai-kit-headless.jsx`),
    components: await measure(root, `${dir}/components-react.jsx`),
    componentsLazy: await measure(root, `${dir}/components-react-lazy.jsx`),
    handwritten: await measure(root, `${dir}/react-livekit.jsx`),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureSameFeature(process.cwd()));
