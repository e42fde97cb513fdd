#!/usr/bin/env node
/**
 * API reports of the package's public entries, made by @microsoft/api-extractor from the declarations users compile
 * against: one `api/<entry>.api.md` per entry of package.json `exports`, each export with its release tag
 * (`@public`, `@beta`, `@internal`).
 *
 *   node scripts/api-report.mjs          writes api/*.api.md (commit them with the change that moves the surface)
 *   node scripts/api-report.mjs --check  fails when an entry's surface differs from its checked-in report
 *                                        (part of `npm run lint`, so CI fails on an unreviewed change)
 *
 * The declarations are emitted first with the build's own `tsc -p tsconfig.build.json` into a scratch folder, so
 * the check needs no prior build.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = new URL('..', import.meta.url).pathname;
const check = process.argv.includes('--check');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// A fixed, git-ignored folder inside the project (not under node_modules, which API Extractor would read as other
// packages), so the paths it prints into a report never change.
const work = join(root, '.api-report');
const types = join(work, 'types');
const reports = join(root, 'api');

/** Messages that belong in the report rather than on the console: the reviewer sees them next to the export. */
const inReport = { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true };

rmSync(work, { recursive: true, force: true });
try {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', types],
    { stdio: 'inherit' },
  );
  // The package's own name for its entries: `liveai-kit`, `liveai-kit/react`, … (the report file names).
  const entries = Object.entries(pkg.exports)
    .filter(([, v]) => typeof v === 'object' && v.types)
    .map(([name, v]) => [name === '.' ? 'liveai-kit' : `liveai-kit/${name.slice(2)}`, join(types, relative('dist/types', v.types))]);
  mkdirSync(reports, { recursive: true });
  const stale = [];
  let failed = false;
  for (const [entry, file] of entries) {
    const reportFileName = `${entry.replace(/\//g, '.')}.api.md`;
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: file,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              strict: true,
              skipLibCheck: true,
              noEmit: true,
              moduleResolution: 'bundler',
              module: 'esnext',
              target: 'es2022',
              lib: ['es2022', 'dom', 'dom.iterable'],
              jsx: 'react-jsx',
              types: ['node'],
            },
            include: [join(types, '**/*.d.ts')],
          },
        },
        apiReport: { enabled: true, reportFileName, reportFolder: reports, reportTempFolder: join(work, 'temp') },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning },
            // Every export says what it is (@public, @beta or @internal): an untagged one fails the report and lint.
            'ae-missing-release-tag': { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
            'ae-forgotten-export': inReport,
            'ae-internal-missing-underscore': { logLevel: ExtractorLogLevel.None },
            'ae-unresolved-link': inReport,
            'ae-undocumented': { logLevel: ExtractorLogLevel.None },
          },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
      configObjectFullPath: join(root, 'api-extractor.json'),
      packageJsonFullPath: join(root, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: !check,
      showVerboseMessages: false,
      messageCallback: (message) => {
        // "You have changed the public API signature": reported below with the file name.
        if (message.messageId === 'console-api-report-changed' || message.messageId === 'console-api-report-copied') {
          message.handled = true;
        }
      },
    });
    if (result.apiReportChanged) {
      if (check) stale.push(relative(root, join(reports, reportFileName)));
      else {
        // A first report is written to the temp folder only; keep it like an update.
        const temp = join(work, 'temp', reportFileName);
        if (existsSync(temp)) copyFileSync(temp, join(reports, reportFileName));
      }
    }
    if (result.errorCount > 0 || (check && result.warningCount > 0)) failed = true;
    console.log(`${entry}: ${result.apiReportChanged ? (check ? 'CHANGED' : 'written') : 'unchanged'}`);
  }
  if (stale.length > 0) {
    console.error(`api-report: the public surface changed; run \`npm run api:report\`, review and commit:\n  ${stale.join('\n  ')}`);
  }
  if (stale.length > 0 || failed) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
