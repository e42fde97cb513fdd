// Vite/Rolldown plugin: writes THIRD_PARTY_NOTICES.md next to a bundle, with the name, version, license and full
// license text of every npm package whose code ended up in it (the minifier strips license comments).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

function packageRoot(id) {
  const i = id.lastIndexOf('/node_modules/');
  if (i < 0) return undefined;
  const rest = id.slice(i + '/node_modules/'.length).split('/');
  const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return join(id.slice(0, i), 'node_modules', name);
}

function licenseText(root) {
  const file = readdirSync(root).find((f) => /^(licen[cs]e|copying|notice)(\..*)?$/i.test(f));
  return file ? readFileSync(join(root, file), 'utf8').trim() : undefined;
}

/** @returns {import('vite').Plugin} */
export function thirdPartyNotices(fileName = 'THIRD_PARTY_NOTICES.md') {
  return {
    name: 'third-party-notices',
    generateBundle() {
      const roots = new Set();
      for (const id of this.getModuleIds()) {
        const root = packageRoot(id.replace(/\0/g, '').split('?')[0]);
        if (root && existsSync(join(root, 'package.json'))) roots.add(root);
      }
      // Pre-bundled packages (livekit-client ships one file with its dependencies inlined): count their
      // dependencies too, transitively, wherever they are installed.
      const queue = [...roots];
      while (queue.length) {
        const root = queue.pop();
        const deps = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {});
        for (const dep of deps) {
          let dir = root;
          let found;
          while (!found && dir !== dirname(dir)) {
            const cand = join(dir, 'node_modules', dep);
            if (existsSync(join(cand, 'package.json'))) found = cand;
            dir = dirname(dir);
          }
          if (found && !roots.has(found)) {
            roots.add(found);
            queue.push(found);
          }
        }
      }
      const entries = [...roots]
        .map((root) => ({ root, pkg: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) }))
        .sort((a, b) => a.pkg.name.localeCompare(b.pkg.name));
      const parts = [
        '# Third-party notices',
        '',
        `This bundle contains code from the following ${entries.length} packages, under their licenses below.`,
        '',
        ...entries.map(({ pkg }) => `- ${pkg.name} ${pkg.version} (${typeof pkg.license === 'string' ? pkg.license : 'see below'})`),
      ];
      for (const { root, pkg } of entries) {
        const text = licenseText(root);
        parts.push(
          '',
          `## ${pkg.name} ${pkg.version}`,
          '',
          `License: ${pkg.license ?? 'unknown'}`,
          '',
          '```',
          text ?? `(no license file in the package; license field: ${pkg.license ?? 'none'})`,
          '```',
        );
      }
      this.emitFile({ type: 'asset', fileName, source: `${parts.join('\n')}\n` });
    },
  };
}
