// Bundle sizes (row 1 of `npm run bench`): gzip bytes of each built entry plus the chunks it statically imports
// (externals such as react, livekit-client and daily-js are not counted), against the budgets of anchors.md, and
// a check that the rtc-b (Daily) path never loads LiveKit code. Reads dist/ (built by scripts/bench.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
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

const gz = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
const chunk = (dir, prefix) => {
  const name = readdirSync(dir).find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (!name) throw new Error(`no ${prefix}*.js in ${dir}`);
  return join(dir, name);
};
/** Markers only LiveKit's client code contains (its protobuf signal messages). */
const LIVEKIT_MARKERS = [/livekit\.SignalRequest/, /livekit\.JoinResponse/];

/**
 * Measures the built package in `root/dist`. Resolves with `{ rows, rtcB }`: rows of
 * `{ name, files, gzBytes, budgetBytes|null, anchor, anchorBytes|null, anchorNote? }`, and rtcB = `{ ok, checked: string[] }`
 * (ok when no file statically reachable from an entry or an rtc-b chunk holds LiveKit code).
 */
export async function measureSizes(root) {
  await init;
  const dist = join(root, 'dist');
  const KB = 1024;
  const entries = [
    { name: 'core (index.js)', file: 'index.js', anchor: 'LiveAvatar SDK own code', anchorKB: 17.1 },
    { name: 'hooks (react.js)', file: 'react.js', anchor: 'Pipecat client-react own code', anchorKB: 52 },
    { name: 'components (components.js)', file: 'components.js', budgetBytes: 35 * KB, anchor: 'Tavus CVI components own code', anchorKB: 6.4, anchorNote: '94 KB with Daily' },
    { name: 'element (element.js)', file: 'element.js', anchor: 'vendor widget, one file, Daily inside', anchorKB: 148 },
    { name: 'testing (testing.js)', file: 'testing.js', anchor: '' },
  ];
  const rows = entries.map((e) => {
    const files = graph(join(dist, e.file));
    return { name: e.name, files: files.map((f) => relative(dist, f)), gzBytes: gz(files), budgetBytes: e.budgetBytes ?? null, anchor: e.anchor, anchorBytes: e.anchorKB ? e.anchorKB * KB : null, anchorNote: e.anchorNote };
  });
  const coreHooks = [...new Set([...graph(join(dist, 'index.js')), ...graph(join(dist, 'react.js'))])];
  rows.splice(2, 0, { name: 'core + hooks (index.js + react.js)', files: coreHooks.map((f) => relative(dist, f)), gzBytes: gz(coreHooks), budgetBytes: 15 * KB, anchor: 'LiveAvatar SDK own code', anchorBytes: 17.1 * KB, anchorNote: 'HeyGen own code 39.5 KB' });
  const sa = join(dist, 'standalone');
  const page = [...new Set([...graph(join(sa, 'liveai-avatar.js')), ...graph(chunk(join(sa, 'chunks'), 'rtc-a-'))])];
  rows.push({ name: 'drop-in widget page (standalone + rtc-a, React + livekit-client inside)', files: page.map((f) => relative(dist, f)), gzBytes: gz(page), budgetBytes: null, anchor: 'vendor widget, Daily inside', anchorBytes: 148 * KB, anchorNote: 'LiveAvatar 122 KB, HeyGen 139 KB (LiveKit, no React); livekit-client + react + react-dom alone are 224 KB' });
  // What a page on the rtc-b path loads: an entry's static graph plus the rtc-b chunk's static graph.
  const rtcBRoots = [join(dist, 'index.js'), join(dist, 'components.js'), join(dist, 'element.js'), chunk(join(dist, 'chunks'), 'rtc-b-'), join(sa, 'liveai-avatar.js'), chunk(join(sa, 'chunks'), 'rtc-b-')];
  const checked = [...new Set(rtcBRoots.flatMap((r) => graph(r)))];
  const offenders = checked.filter((f) => {
    const text = readFileSync(f, 'utf8');
    return /from\s*["']livekit-client["']|import\(\s*["']livekit-client["']\)/.test(text) || LIVEKIT_MARKERS.some((m) => m.test(text));
  });
  return { rows, rtcB: { ok: offenders.length === 0, checked: checked.map((f) => relative(dist, f)), offenders: offenders.map((f) => relative(dist, f)) } };
}
