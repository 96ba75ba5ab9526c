// A second kwok for the benchmark's 1,000 nodes only. It marks a node Ready once and then leaves it alone: no node
// Lease (kwok would renew 1,000 of them every 10 s) and no heartbeat stage (kwok's default rewrites every node's
// status every 20–45 s). Together with the KCM's ttl and node-lifecycle controllers turned off for the bench cluster,
// that removes background writes that were half the apiserver's write load and had nothing to do with what is
// measured. No client-side QPS limit, and warnings only (its INFO log is a line per patch).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster } from '../../e2e/harness/cluster/cluster.js';
import { spawnDaemon, type Daemon } from '../../e2e/harness/runtime/process.js';

/** The annotation value that hands a node to this kwok (the harness's own kwok takes `fake`). */
export const BENCH_KWOK_NODE = 'bench';

/** The only node stage: NotReady → Ready once, keeping the capacity the bench wrote. */
const readyOnce = `---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: bench-node-ready-once
spec:
  resourceRef:
    apiGroup: v1
    kind: Node
  selector:
    matchExpressions:
    - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
      operator: NotIn
      values: ['True']
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - type: Ready
        status: "True"
        reason: KubeletReady
        message: benchmark node without heartbeats
        lastHeartbeatTime: {{ $now | Quote }}
        lastTransitionTime: {{ $now | Quote }}
      addresses:
      - type: InternalIP
        address: {{ NodeIP | Quote }}
      allocatable:
      {{ YAML .status.allocatable 1 }}
      capacity:
      {{ YAML .status.capacity 1 }}
      nodeInfo:
        architecture: amd64
        operatingSystem: linux
        kubeletVersion: kwok
        containerRuntimeVersion: kwok
      phase: Running
`;

export function startBenchKwok(cluster: Cluster, bin: string, dir: string): Daemon {
  const config = join(dir, 'kwok-bench.yaml');
  writeFileSync(config, `apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokConfiguration\noptions:\n  disableQPSLimits: true\n${readyOnce}`);
  return spawnDaemon('kwok-bench', join(bin, 'kwok'), [`--kubeconfig=${cluster.kubeconfig}`, `--config=${config}`, '--manage-all-nodes=false',
    `--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=${BENCH_KWOK_NODE}`, '--cidr=10.1.0.0/16', '--node-ip=10.1.0.1',
    '--node-lease-duration-seconds=0', '-v=WARN'],
  join(cluster.logDir, 'kwok-bench.log'));
}
