// How the harness and the benchmarks start the manager's two processes: as the image does, from the esbuild
// bundles (dist/webhook/main.mjs, dist/controller/main.mjs), built once per process with the image's, so the e2e
// suite tests what is deployed. KRUISE_TS_FROM_SOURCES=1 runs the TypeScript sources through tsx instead.
import { join } from 'node:path';
import { BUNDLES, bundlesBuilt } from '../../../scripts/bundles.js';

export type ManagerApp = 'webhook' | 'controller';

export const fromSources = (env: Record<string, string | undefined> = process.env) => env.KRUISE_TS_FROM_SOURCES === '1';

/** The node arguments that run `app` of the checkout at `repoRoot`. */
export async function managerArgs(repoRoot: string, app: ManagerApp): Promise<string[]> {
  if (fromSources()) return ['--import', 'tsx', join(repoRoot, `${app}/main.ts`)];
  await bundlesBuilt(repoRoot);
  return [join(repoRoot, BUNDLES[app].out)];
}
