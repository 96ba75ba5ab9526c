// What the DaemonSet runs, read from manifests/base/daemon.yaml, so benchmarks measure the deployed command line.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { REPO_ROOT } from '../../e2e/harness/daemon.js';

export const DAEMON_BUNDLE = join(REPO_ROOT, 'dist/daemon/main.mjs');

/** The node flags of the DaemonSet's command (`node <flags…> dist/daemon/main.mjs`). */
export function deployedNodeFlags(): string[] {
  const ds = yaml.load(readFileSync(join(REPO_ROOT, 'manifests/base/daemon.yaml'), 'utf8')) as { spec: { template: { spec: { containers: Array<{ name: string; command: string[] }> } } } };
  const command = ds.spec.template.spec.containers.find((c) => c.name === 'daemon')!.command;
  if (command[0] !== 'node' || command.at(-1) !== 'dist/daemon/main.mjs') throw new Error(`manifests/base/daemon.yaml runs ${JSON.stringify(command)}, not the bundle`);
  return command.slice(1, -1);
}

/** `npm run build:daemon`: the bundle benchmarks start. */
export function buildDaemonBundle(): string {
  execFileSync('npm', ['run', '--silent', 'build:daemon'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return DAEMON_BUNDLE;
}
