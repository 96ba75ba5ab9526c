// What the DaemonSet runs, read from manifests/base/daemon.yaml, so benchmarks measure the deployed command line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { REPO_ROOT } from '../../e2e/harness/daemon.js';
import { buildBundles } from '../../scripts/bundles.js';

/** The node flags of the DaemonSet's command (`node <flags…> dist/daemon/main.mjs`). */
export function deployedNodeFlags(): string[] {
  const ds = yaml.load(readFileSync(join(REPO_ROOT, 'manifests/base/daemon.yaml'), 'utf8')) as { spec: { template: { spec: { containers: Array<{ name: string; command: string[] }> } } } };
  const command = ds.spec.template.spec.containers.find((c) => c.name === 'daemon')!.command;
  if (command[0] !== 'node' || command.at(-1) !== 'dist/daemon/main.mjs') throw new Error(`manifests/base/daemon.yaml runs ${JSON.stringify(command)}, not the bundle`);
  return command.slice(1, -1);
}

/** The daemon's bundle, as `npm run build:daemon` builds it: what the benchmarks start. */
export async function buildDaemonBundle(): Promise<string> {
  const [built] = await buildBundles(REPO_ROOT, ['daemon']);
  return built!.file;
}
