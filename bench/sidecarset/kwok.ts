// The bench's own kwok for its 1,000 nodes. The harness's kwok runs kwok's defaults (4 workers each for pod stages,
// node stages and leases), which at this scale falls behind: pods wait minutes for their Running status.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnDaemon, type Daemon } from '../../e2e/harness/runtime/process.js';

/** Nodes carrying this annotation value are the bench's kwok's (the harness's kwok manages `fake`). */
export const BENCH_KWOK_ANNOTATION = 'bench';

/**
 * No node leases. The bench runs without the node lifecycle controller, so nothing reads node health; with a lease
 * duration, kwok v0.7.0 renews every lease and also patches every node's status every 20–45 s (it picks its slow
 * heartbeat stage only when leases are off), some 60 writes/s for 1,000 nodes. Without, a node's status is
 * refreshed every 10–20 min.
 */
const LEASE_SECONDS = 0;

export function startBenchKwok(opts: { bin: string; kubeconfig: string; dir: string; logDir: string; parallelism: number }): Daemon {
  const config = join(opts.dir, 'bench-kwok.yaml');
  const p = opts.parallelism;
  writeFileSync(config, [
    'apiVersion: config.kwok.x-k8s.io/v1alpha1',
    'kind: KwokConfiguration',
    'options:',
    `  podPlayStageParallelism: ${p}`,
    `  nodePlayStageParallelism: ${p}`,
    `  nodeLeaseParallelism: ${p}`,
    `  podsOnNodeSyncParallelism: ${Math.max(1, p >> 2)}`,
    `  nodeLeaseDurationSeconds: ${LEASE_SECONDS}`,
    '',
  ].join('\n'));
  return spawnDaemon('bench-kwok', join(opts.bin, 'kwok'), [`--config=${config}`, `--kubeconfig=${opts.kubeconfig}`,
    '--manage-all-nodes=false', `--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=${BENCH_KWOK_ANNOTATION}`,
    '--cidr=10.0.0.0/24', '--node-ip=10.0.0.2'], join(opts.logDir, 'bench-kwok.log'));
}
