// Bundle sizes (row 1 of `npm run bench`). Builds the package first (`npm run build`, so dist/ is never stale), then
// reports the rows of .size-limit.cjs exactly as size-limit measures them (esbuild bundle + minify, gzip; only React
// and the transport SDKs excluded, zod and zustand counted), with the anchors of anchors.md, plus a check that the
// rtc-b (Daily) path never loads LiveKit code.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { init, parse } from 'es-module-lexer';

/** Relative imports of one built file: `{ static: string[], dynamic: string[] }` as absolute paths. */
function importsOf(file) {
  const [imports] = parse(readFileSync(file, 'utf8'));
  const out = { static: [], dynamic: [] };
  for (const imp of imports) {
    if (!imp.n || !imp.n.startsWith('.')) continue; // bare specifiers are externals
    (imp.d > -1 ? out.dynamic : out.static).push(resolve(dirname(file), imp.n));
  }
  return out;
}

/** Every file reachable from `entry`: static imports only, or static and dynamic (`withDynamic`). */
export function graph(entry, { withDynamic = false } = {}) {
  const seen = new Set();
  const walk = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    const { static: s, dynamic: d } = importsOf(f);
    for (const g of withDynamic ? [...s, ...d] : s) walk(g);
  };
  walk(entry);
  return [...seen];
}

const chunk = (dir, prefix) => {
  const name = readdirSync(dir).find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (!name) throw new Error(`no ${prefix}*.js in ${dir}`);
  return join(dir, name);
};
/** Markers only LiveKit's client code contains (its protobuf signal messages). */
const LIVEKIT_MARKERS = [/livekit\.SignalRequest/, /livekit\.JoinResponse/];

/** Anchors (anchors.md, gzip) for the size-limit rows, by the start of the row name. */
const ANCHORS = [
  ['core + hooks, first load (', { anchor: 'LiveAvatar SDK own code', anchorKB: 17.1, anchorNote: 'HeyGen own code 39.5 KB' }],
  ['components, first load', { anchor: 'Tavus CVI components own code', anchorKB: 6.4, anchorNote: '94 KB with Daily' }],
  [
    'drop-in widget page',
    {
      anchor: 'vendor widget, Daily inside',
      anchorKB: 148,
      anchorNote: 'ours: Preact inside (preact/compat), the transport SDK loads on start (livekit-client 155 KB, daily-js 70 KB)',
    },
  ],
];

/** Runs `npm run build` in `root`; throws when it fails. Build output goes to stderr. */
export function build(root) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (b.status !== 0) throw new Error('npm run build failed');
}

/** The rows of .size-limit.cjs as measured by size-limit: `{ name, size (gzip bytes), limit?: bytes, passed? }[]`. */
export function sizeLimitRows(root) {
  const out = execFileSync('npx', ['size-limit', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out.slice(out.indexOf('[')));
}

/**
 * Builds the package in `root`, then measures it. Resolves with `{ rows, rtcB }`: rows of
 * `{ name, gzBytes, budgetBytes|null, anchor, anchorBytes|null, anchorNote? }` — one per size-limit row, same numbers —
 * and rtcB = `{ ok, checked: string[], offenders }` (ok when no file statically reachable from an entry or an rtc-b
 * chunk holds LiveKit code).
 */
export async function measureSizes(root, { skipBuild = false } = {}) {
  if (!skipBuild) build(root);
  await init;
  const dist = join(root, 'dist');
  const rows = sizeLimitRows(root).map((r) => {
    const a = ANCHORS.find(([prefix]) => r.name.startsWith(prefix))?.[1] ?? { anchor: '' };
    return {
      name: r.name,
      gzBytes: r.size,
      budgetBytes: r.sizeLimit ?? null,
      anchor: a.anchor,
      anchorBytes: a.anchorKB ? a.anchorKB * 1000 : null,
      anchorNote: a.anchorNote,
    };
  });
  const sa = join(dist, 'standalone');
  // What a page on the rtc-b path loads: an entry's static graph plus the rtc-b chunk's static graph.
  const rtcBRoots = [
    join(dist, 'index.js'),
    join(dist, 'components.js'),
    join(dist, 'element.js'),
    chunk(join(dist, 'chunks'), 'daily-adapter-'),
    join(sa, 'liveai-avatar.js'),
    chunk(join(sa, 'chunks'), 'daily-adapter-'),
  ];
  const checked = [...new Set(rtcBRoots.flatMap((r) => graph(r)))];
  const offenders = checked.filter((f) => {
    const text = readFileSync(f, 'utf8');
    return /from\s*["']livekit-client["']|import\(\s*["']livekit-client["']\)/.test(text) || LIVEKIT_MARKERS.some((m) => m.test(text));
  });
  return {
    rows,
    rtcB: {
      ok: offenders.length === 0,
      checked: checked.map((f) => relative(dist, f)),
      offenders: offenders.map((f) => relative(dist, f)),
    },
  };
}
