// The running stack, written to a state file so a later process (tests, `down`) can find and stop it.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ReleaseState } from '../node/launch.js';
import type { RealNodeState } from '../node/stop.js';
import { killGroups } from '../runtime/process-groups.js';
import type { ClusterState } from './cluster.js';

export interface StackState extends ClusterState {
  /** Host-process webhook and controllers: only without a real node (KRUISE_TS_REAL_NODE=0), where no pod runs. */
  manager?: { pid: number; log: string; webhookPort: number; healthPort: number };
  controller?: { pid: number; log: string; healthPort: number };
  /** The kubelet node (e2e/harness/node), stopped by the CLI before the rest. */
  realNode?: RealNodeState;
  /** The Helm release of kruise-ts (e2e/harness/node/helm-install.ts). */
  release?: ReleaseState;
  /** The helm binary e2e/cluster/build.sh built. */
  helm?: string;
}

export const readState = (file: string): StackState => JSON.parse(readFileSync(file, 'utf8')) as StackState;
export const writeState = (file: string, s: StackState) => writeFileSync(file, `${JSON.stringify(s, null, 2)}\n`);

/** Stops everything a state file names and removes its directories; a missing file means nothing runs. */
export async function teardown(file: string, keepLogs = false): Promise<void> {
  if (!existsSync(file)) return;
  const s = readState(file);
  await killGroups([...(s.controller ? [s.controller.pid] : []), ...(s.manager ? [s.manager.pid] : []), ...s.processes.map((p) => p.pid).reverse()]);
  for (const d of s.dataDirs) rmSync(d, { recursive: true, force: true });
  if (!keepLogs) rmSync(s.dir, { recursive: true, force: true });
  rmSync(file, { force: true });
}
