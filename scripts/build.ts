// `npm run build` (all bundles), `build:daemon`, `build:manager`: node --import tsx scripts/build.ts [group|bundle…].
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_GROUPS, BUNDLES, buildBundles, type BundleName } from './bundles.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const names = new Set<BundleName>();
for (const a of args.length ? args : ['all']) {
  const group = BUNDLE_GROUPS[a] ?? (a in BUNDLES ? [a as BundleName] : undefined);
  if (!group) {
    process.stderr.write(`unknown bundle ${JSON.stringify(a)}; want one of ${[...new Set([...Object.keys(BUNDLE_GROUPS), ...Object.keys(BUNDLES)])].join(', ')}\n`);
    process.exit(2);
  }
  for (const n of group) names.add(n);
}
try {
  for (const b of await buildBundles(repoRoot, [...names])) {
    process.stdout.write(`${relative(repoRoot, b.file)}  ${(b.bytes / 1e6).toFixed(2)} MB\n`);
  }
} catch (err) {
  // esbuild has already printed the errors (logLevel warning).
  process.stderr.write(`build failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
  process.exit(1);
}
