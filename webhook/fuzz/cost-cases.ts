// The review's worst cases for admission cost (review C1 and the hostile-input table), built to a target body size:
// shared by webhook/admission-cost.test.ts (operation counts), bench/admission/cost.ts (event-loop stall over HTTPS)
// and the fuzzer's size generators. Each case grows the pod in one dimension a product could hide in.
import type { Container, Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';

export interface CostCase {
  name: string;
  /** The pod at scale `k` (k ≥ 1); its JSON grows monotonically with k. */
  pod: (k: number) => Pod;
}

const base = (spec: Pod['spec'], annotations?: Record<string, string>): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'cost', namespace: 'default', labels: { app: 'web' }, ...(annotations ? { annotations } : {}) },
  spec,
});

const app = (extra: Partial<Container> = {}): Container => ({ name: 'app', image: 'registry.local/web/app:1', ...extra });

export const COST_CASES: readonly CostCase[] = [
  {
    // The review's C1 shape: mounts × $(VAR) refs per mount × env vars, all growing together (500 × 20 × 5,000 is
    // about 0.25 MiB, 3,000 × 120 × 30,000 about 3.4 MiB).
    name: 'subPathExpr refs × env (C1)',
    pod: (k) => {
      const refs = Math.max(1, Math.round(k / 25));
      const envs = 10 * k;
      const env = Array.from({ length: envs }, (_, i) => ({ name: `E${i}`, value: 'v' }));
      const volumeMounts = Array.from({ length: k }, (_, i) => ({
        name: 'data',
        mountPath: `/m/${i}`,
        subPathExpr: Array.from({ length: refs }, (_, j) => `$(E${(i * refs + j) % envs})`).join('/'),
      }));
      return base({ containers: [app({ env, volumeMounts })], volumes: [{ name: 'data', emptyDir: {} }] });
    },
  },
  {
    name: 'annotations',
    pod: (k) => base({ containers: [app()] }, Object.fromEntries(Array.from({ length: 40 * k }, (_, i) => [`example.com/key-${i}`, `value-${i}`]))),
  },
  {
    name: 'containers',
    pod: (k) =>
      base({
        containers: Array.from({ length: 8 * k }, (_, i) => ({ name: `c${i}`, image: 'x', env: [{ name: 'A', value: '1' }], volumeMounts: [{ name: 'data', mountPath: `/data/${i}` }] })),
        volumes: [{ name: 'data', emptyDir: {} }],
      }),
  },
  {
    name: 'volumes and mounts',
    pod: (k) => {
      const n = 12 * k;
      return base({
        containers: [app({ volumeMounts: Array.from({ length: n }, (_, i) => ({ name: `v${i}`, mountPath: `/v/${i}` })) })],
        volumes: Array.from({ length: n }, (_, i) => ({ name: `v${i}`, emptyDir: {} })),
      });
    },
  },
];

/** A CREATE AdmissionReview for `pod`, as the apiserver sends it. */
export function podReview(pod: Pod, uid = 'cost') {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'cost' },
      object: pod,
    },
  };
}

export const MiB = 1024 * 1024;

/**
 * A scale whose review is `bytes` of JSON or up to 3% more: a secant search on log(size) against log(k), since the
 * cases grow as powers of k (a few builds instead of a bisection's dozen of multi-MiB ones).
 */
export function sized(c: CostCase, bytes: number): { k: number; pod: Pod; body: string } {
  const build = (k: number) => {
    const pod = c.pod(k);
    return { k, pod, body: JSON.stringify(podReview(pod)) };
  };
  let a = build(8);
  let b = build(16);
  for (let i = 0; i < 30; i++) {
    if (b.body.length >= bytes && b.body.length <= bytes * 1.03) return b;
    const p = Math.log(b.body.length / a.body.length) / Math.log(b.k / a.k);
    let k = Math.round(b.k * (bytes * 1.01 / b.body.length) ** (1 / (Number.isFinite(p) && p > 0 ? p : 1)));
    if (k === b.k) k += b.body.length < bytes ? 1 : -1;
    [a, b] = [b, build(Math.max(1, k))];
  }
  return b;
}

/**
 * `count` SidecarSets selecting app=web, each injecting one sidecar that shares the pod's volumes
 * (shareVolumePolicy: enabled), as log agents do; resourceVersions set, so injection takes its cached paths.
 */
export function sharingSidecarSets(count = 4): SidecarSet[] {
  return Array.from({ length: count }, (_, i) => ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: `share-${i}`, resourceVersion: String(100 + i), annotations: { 'kruise.io/sidecarset-hash': `h${i}`, 'kruise.io/sidecarset-hash-without-image': `w${i}` } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: `agent-${i}`, image: 'registry.local/agent:1', podInjectPolicy: 'AfterAppContainer', shareVolumePolicy: { type: 'enabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' } }],
    },
  })) as SidecarSet[];
}
