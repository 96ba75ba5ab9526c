// Test objects shaped as upstream's workloadspread tests write them (CloneSet `cloneset-test`, WS `test-ws`).
import type { Pod } from '../../api/meta.js';
import type { WorkloadSpread, WorkloadSpreadSubsetStatus } from '../../api/workload-spread.js';

export const cloneSetPod = (name = 'test-pod-1', extra: Partial<NonNullable<Pod['metadata']>> = {}): Pod => ({
  metadata: {
    name, namespace: 'default',
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cloneset-test', uid: 'cs-uid', controller: true }],
    ...extra,
  },
  spec: { containers: [{ name: 'main', image: 'nginx' }] },
});

export function workloadSpread(statuses: WorkloadSpreadSubsetStatus[] | undefined, maxA: number | string | null = 5, extraSubsets: WorkloadSpread['spec'] extends infer S ? S extends { subsets: infer L } ? L : never : never = []): WorkloadSpread {
  return {
    metadata: { name: 'test-ws', namespace: 'default', uid: 'ws-uid', resourceVersion: '10' },
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cloneset-test' },
      subsets: [{ name: 'subset-a', ...(maxA === null ? {} : { maxReplicas: maxA }) }, ...extraSubsets],
    },
    ...(statuses ? { status: { observedGeneration: 1, versionedSubsetStatuses: { versionIgnored: statuses } } } : {}),
  };
}
