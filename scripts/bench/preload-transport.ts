// A Vite plugin an app can copy into its vite.config (docs/benchmarks.md, "Page settle"): every HTML page whose
// script can reach liveai-kit's LiveKit adapter (through `import 'liveai-kit/livekit'`) gets
// `<link rel="modulepreload">` hints for the adapter chunk, the checks of what a call receives (`call-path`) and the
// chunks they import (livekit-client among them): what a LiveKit call loads on Start. The browser then fetches them
// alongside the page's own script. Without the hints it learns of them only once that
// script has run and the widget asks for its transport: one more round trip, and on a slow link the largest file
// of the page loaded after everything else instead of with it. Pages that cannot reach the adapter get nothing.
import type { Plugin } from 'vite';

/** The adapter chunk's module: the package's built chunk, or (this repository's bench) its source file. */
const ADAPTER = /liveai-kit[\\/]dist[\\/]chunks[\\/]livekit-adapter-[^\\/]+\.js$|src[\\/]core[\\/]transports[\\/]livekit[\\/]adapter\.ts$/;
/** The call's checks of what it receives (the session loads them on Start, whatever the transport). */
const CALL_PATH = /liveai-kit[\\/]dist[\\/]chunks[\\/]call-path-[^\\/]+\.js$|src[\\/]core[\\/]schemas[\\/]call-path\.ts$/;

/** `<link rel="modulepreload">` for liveai-kit's LiveKit adapter and its static imports, on pages that may load it. */
export function preloadLiveKitTransport(): Plugin {
  let base = '/';
  return {
    name: 'liveai-preload-livekit-transport',
    apply: 'build',
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return;
        const chunks = (name: string) => {
          const c = bundle[name];
          return c?.type === 'chunk' ? c : undefined;
        };
        // What the page's script loads: statically (already hinted by Vite) and all it may import().
        const statics = new Set<string>();
        const reachable = new Set<string>();
        const walk = (name: string, dynamic: boolean) => {
          const c = chunks(name);
          if (!c || reachable.has(name)) return;
          reachable.add(name);
          if (!dynamic) statics.add(name);
          for (const i of c.imports) walk(i, dynamic);
          for (const i of c.dynamicImports) walk(i, true);
        };
        walk(chunk.fileName, false);
        const facade = (re: RegExp) => [...reachable].find((name) => re.test(chunks(name)?.facadeModuleId ?? ''));
        const adapter = facade(ADAPTER);
        if (!adapter) return;
        const preload = new Set<string>();
        const closure = (name: string) => {
          if (preload.has(name) || statics.has(name)) return;
          preload.add(name);
          for (const i of chunks(name)?.imports ?? []) closure(i);
        };
        closure(adapter);
        const callPath = facade(CALL_PATH);
        if (callPath) closure(callPath);
        return [...preload].map((name) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${name}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
