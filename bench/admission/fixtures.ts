// Realistic inputs for the admission benchmark: a Deployment-style pod and 100 SidecarSets of which 10 select it.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { GATE_DEFAULTS } from '../../shared/feature-gates.js';
import { admissionCaches, staticCache, type CacheSet } from '../../webhook/caches.js';
import type { RouteDeps } from '../../webhook/handlers/index.js';

export function sidecarSets(total = 100, matching = 10): SidecarSet[] {
  return Array.from({ length: total }, (_, i) => {
    const name = `sidecarset-${String(i).padStart(3, '0')}`;
    const matches = i % (total / matching) === 0;
    return {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: {
        name,
        uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
        resourceVersion: String(1000 + i),
        annotations: { 'kruise.io/sidecarset-hash': `hash-${i}`, 'kruise.io/sidecarset-hash-without-image': `hash-wo-${i}` },
      },
      spec: {
        selector: { matchLabels: matches ? { app: 'web' } : { app: `other-${i}` } },
        updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 },
        containers: [
          {
            name: `${name}-agent`,
            image: `registry.local/agents/log-agent:1.${i}.0`,
            imagePullPolicy: 'IfNotPresent',
            podInjectPolicy: i % 2 ? 'AfterAppContainer' : 'BeforeAppContainer',
            upgradeStrategy: { upgradeType: 'ColdUpgrade' },
            shareVolumePolicy: { type: i % 3 === 0 ? 'enabled' : 'disabled' },
            env: [{ name: 'AGENT_INDEX', value: String(i) }, { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
            transferEnv: [{ sourceContainerName: 'app', envName: 'TZ' }],
            resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
            volumeMounts: [{ name: `${name}-config`, mountPath: `/etc/${name}` }],
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        volumes: [{ name: `${name}-config`, configMap: { name: `${name}-config`, defaultMode: 420 } }],
        revisionHistoryLimit: 10,
      },
      status: { latestRevision: `${name}-5f6d95f777`, observedGeneration: 1 },
    } as unknown as SidecarSet;
  });
}

/**
 * The ServiceAccount admission plugin, which runs before any webhook, adds a token volume with a random 5-character
 * suffix: no two real pods share it, and sidecars with shareVolumePolicy mount it under that per-pod name.
 */
const tokenVolume = (index: number) => `kube-api-access-${(index * 7_919 + 12_345).toString(36).padStart(5, 'x').slice(-5)}`;

export function pod(index: number): Pod {
  const token = tokenVolume(index);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'web-7c9f8d6b5-',
      namespace: 'default',
      labels: { app: 'web', 'pod-template-hash': '7c9f8d6b5', tier: 'frontend' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z', 'prometheus.io/scrape': 'true' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7c9f8d6b5', uid: `rs-${index}`, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.local/web/app:2.4.1',
          ports: [{ containerPort: 8080, protocol: 'TCP', name: 'http' }],
          env: [{ name: 'TZ', value: 'UTC' }, { name: 'MODE', value: 'prod' }],
          resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          readinessProbe: { httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' }, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
          volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: token, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
        { name: 'metrics', image: 'registry.local/web/exporter:0.9', ports: [{ containerPort: 9100, protocol: 'TCP' }], imagePullPolicy: 'IfNotPresent' },
      ],
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: token, projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }] } },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      schedulerName: 'default-scheduler',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
  };
}

export function podReview(index: number) {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `bench-${index}`,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts', 'system:authenticated'] },
      object: pod(index),
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
  };
}

/** The benchmarks' caches: 100 SidecarSets (10 matching the pods), the default namespace, nothing else. */
export function benchCacheSet(): CacheSet {
  return {
    sidecarSets: staticCache(sidecarSets(100, 10) as never[]),
    namespaces: staticCache([{ metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } }]),
    revisions: staticCache([]),
    configMaps: staticCache([]),
  };
}

export const BENCH_GATES: RouteDeps['gates'] = GATE_DEFAULTS;

/** The handler table's dependencies for the benchmarks: 100 SidecarSets (10 matching) in static caches, no API server. */
export function routeDeps(now: () => Date): RouteDeps {
  return {
    caches: admissionCaches(benchCacheSet(), { fetchPod: async () => undefined, fetchNode: async () => undefined }),
    gates: BENCH_GATES,
    now,
    random: Math.random,
  };
}
