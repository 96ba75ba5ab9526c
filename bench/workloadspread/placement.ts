// The WorkloadSpread admission work per pod, without the API calls (which the webhook makes by RPC to main):
// /mutate-pod's placement (subset choice + injection with a strategic-merge patch) and the validating webhook, over
// WorkloadSpreads of growing size. Prints µs per call; `node --import tsx bench/workloadspread/placement.ts`.
import type { Pod } from '../../shared/api/meta.js';
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import { validateWorkloadSpread } from '../../shared/domain/validation/workload-spread.js';
import { injectSubset } from '../../shared/domain/workloadspread/inject.js';
import { chooseOnCreate } from '../../shared/domain/workloadspread/subset-choice.js';

const pod: Pod = {
  metadata: { name: 'web-abcde', namespace: 'default', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'u', controller: true }] },
  spec: { containers: [{ name: 'web', image: 'nginx', env: Array.from({ length: 20 }, (_, i) => ({ name: `E${i}`, value: 'v' })) }] },
};

function spread(subsets: number, recorded: number): WorkloadSpread {
  const creating = Object.fromEntries(Array.from({ length: recorded }, (_, i) => [`web-${i}`, '2026-01-01T00:00:00Z']));
  return {
    metadata: { name: 'ws', namespace: 'default' },
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      subsets: Array.from({ length: subsets }, (_, i) => ({
        name: `s${i}`, maxReplicas: 1_000_000,
        requiredNodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: [`z${i}`] }] },
        tolerations: [{ key: 'zone', operator: 'Equal', value: `z${i}`, effect: 'NoSchedule' }],
        patch: { metadata: { labels: { subset: `s${i}` } }, spec: { containers: [{ name: 'web', env: [{ name: 'SUBSET', value: `s${i}` }] }] } },
      })),
    },
    status: { versionedSubsetStatuses: { versionIgnored: Array.from({ length: subsets }, (_, i) => ({ name: `s${i}`, replicas: 0, missingReplicas: 1_000_000, ...(i === subsets - 1 ? { creatingPods: creating } : {}) })) } },
  };
}

function time(label: string, n: number, f: () => unknown): void {
  for (let i = 0; i < Math.min(n, 50); i++) f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  const us = ((performance.now() - t0) * 1000) / n;
  console.log(`${label.padEnd(58)} ${us.toFixed(1).padStart(9)} µs/call`);
}

for (const [subsets, recorded] of [[2, 0], [10, 100], [100, 1_000], [1_000, 10_000]] as const) {
  const ws = spread(subsets, recorded);
  const now = new Date();
  const n = subsets >= 1_000 ? 50 : 2_000;
  time(`place (choice + inject), ${subsets} subsets, ${recorded} records`, n, () => {
    const d = chooseOnCreate(ws, pod, { version: 'versionIgnored', replicas: 10, now, newUID: () => 'x' });
    return injectSubset(ws, pod, d.subset!, d.generatedUID);
  });
  time(`validate, ${subsets} subsets`, n, () => validateWorkloadSpread(ws, undefined, { others: [] }));
}
