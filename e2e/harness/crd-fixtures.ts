// One apps.kruise.io/v1alpha1 object of each kind carrying every field of its spec and status, written by hand from
// OpenKruise's v1alpha1 types (apis/apps/v1alpha1/*_types.go) and spec/*.md, as a user or OpenKruise would store them.
// Values that the CRD defaults (injectionStrategy.revision.policy, ports[].protocol, ...) are set, so an object read
// back must equal what was sent. The SidecarSet containers and volumes also carry fields no Kubernetes version has
// (`x-future-*`): upstream keeps unknown fields there, so must we. e2e/crd-schema.e2e.test.ts applies them;
// crd-fixtures.test.ts checks they cover every field of shared/api's schemas.

const selector = (app: string) => ({
  matchLabels: { app },
  matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }],
});

const container = (name: string) => ({
  name,
  image: 'registry.example/sidecar:1.0',
  command: ['/bin/agent'],
  args: ['--port=9000'],
  workingDir: '/work',
  ports: [{ name: 'metrics', containerPort: 9000, protocol: 'TCP', hostPort: 19000, hostIP: '127.0.0.1' }],
  envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'agent-config', optional: true } }],
  env: [
    { name: 'MODE', value: 'sidecar' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: 'CPU', valueFrom: { resourceFieldRef: { containerName: name, resource: 'limits.cpu', divisor: '1m' } } },
  ],
  resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '64Mi' } },
  resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
  volumeMounts: [{ name: 'shared', mountPath: '/shared', readOnly: true, subPath: 'agent', mountPropagation: 'None' }],
  volumeDevices: [{ name: 'raw', devicePath: '/dev/xvda' }],
  livenessProbe: { httpGet: { path: '/healthz', port: 9000, scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: '1' }] }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 2, successThreshold: 1, failureThreshold: 3 },
  readinessProbe: { tcpSocket: { port: 'metrics' }, periodSeconds: 5 },
  startupProbe: { exec: { command: ['cat', '/ready'] }, failureThreshold: 30 },
  lifecycle: {
    postStart: { exec: { command: ['/bin/agent', 'warm'] } },
    preStop: { httpGet: { path: '/drain', port: 9000 } },
  },
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
  securityContext: {
    runAsUser: 1000, runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false,
    capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' },
    'x-future-security-field': 'kept',
  },
  stdin: false,
  tty: false,
  'x-future-container-field': { nested: ['kept'] },
});

const sidecarFields = {
  podInjectPolicy: 'AfterAppContainer',
  upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'registry.example/empty:1.0' },
  shareVolumePolicy: { type: 'enabled' },
  shareVolumeDevicePolicy: { type: 'enabled' },
  resourcesPolicy: {
    targetContainersMode: 'sum', targetContainersNameRegex: '^main$',
    resourcesExpr: { limits: { cpu: 'cpu*50%', memory: 'memory*50%' }, requests: { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' } },
  },
  transferEnv: [
    { sourceContainerName: 'main', envName: 'TZ' },
    { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['main-container']" } }, envNames: ['LANG', 'LC_ALL'] },
  ],
};

export const SIDECARSET = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'every-field' },
  spec: {
    selector: selector('every-field'),
    namespace: 'apps',
    namespaceSelector: { matchLabels: { team: 'a' } },
    initContainers: [{ ...container('init-agent'), restartPolicy: 'Always', ...sidecarFields }],
    containers: [{ ...container('agent'), ...sidecarFields }],
    volumes: [
      { name: 'shared', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
      { name: 'cfg', configMap: { name: 'agent-config', items: [{ key: 'a', path: 'a.conf', mode: 420 }], defaultMode: 420, optional: true } },
      { name: 'future', 'x-future-volume-source': { path: '/kept' } },
    ],
    updateStrategy: {
      type: 'RollingUpdate',
      paused: true,
      selector: selector('canary'),
      partition: '20%',
      maxUnavailable: 2,
      priorityStrategy: {
        orderPriority: [{ orderedKey: 'order' }],
        weightPriority: [{ weight: 50, matchSelector: selector('heavy') }],
      },
      scatterStrategy: [{ key: 'zone', value: 'a' }],
    },
    injectionStrategy: { paused: true, revision: { customVersion: 'v2', revisionName: 'every-field-abc', policy: 'Partial' } },
    imagePullSecrets: [{ name: 'registry-secret' }],
    revisionHistoryLimit: 5,
    patchPodMetadata: [{ annotations: { 'example.com/agent': 'on' }, patchPolicy: 'MergePatchJson' }],
  },
  status: {
    observedGeneration: 3, matchedPods: 4, updatedPods: 3, readyPods: 2, updatedReadyPods: 1,
    latestRevision: 'every-field-abc', collisionCount: 1,
  },
};

/**
 * The same SidecarSet as v1beta1 stores it (spec/openkruise-v1.9.md §2.1): no spec.namespace (a namespaceSelector on
 * kubernetes.io/metadata.name says it), spec.customVersion instead of the SidecarSet's custom-version label.
 */
export const SIDECARSET_V1BETA1 = {
  ...SIDECARSET,
  apiVersion: 'apps.kruise.io/v1beta1',
  spec: (({ namespace: _namespace, ...rest }) => ({
    ...rest,
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'apps' }, matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] },
    customVersion: 'v3',
  }))(SIDECARSET.spec),
};

export const CONTAINER_RECREATE_REQUEST = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest', metadata: { name: 'every-field', namespace: 'default' },
  spec: {
    podName: 'web-0',
    containers: [
      {
        name: 'app',
        preStop: { exec: { command: ['/bin/drain'] } },
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP', hostPort: 18080, hostIP: '127.0.0.1' }],
        statusContext: { containerID: 'containerd://0123abcd', restartCount: 2 },
      },
      { name: 'web', preStop: { httpGet: { path: '/stop', port: 'http', host: 'localhost', scheme: 'HTTPS', httpHeaders: [{ name: 'X-Stop', value: 'yes' }] } } },
      { name: 'tcp', preStop: { tcpSocket: { port: 9000, host: 'localhost' } } },
    ],
    strategy: {
      failurePolicy: 'Ignore', orderedRecreate: true, forceRecreate: true,
      terminationGracePeriodSeconds: 30, unreadyGracePeriodSeconds: 5, minStartedSeconds: 10,
    },
    activeDeadlineSeconds: 300,
    ttlSecondsAfterFinished: 600,
  },
  status: {
    phase: 'Completed',
    completionTime: '2026-01-02T03:04:05Z',
    message: 'done',
    containerRecreateStates: [{ name: 'app', phase: 'Succeeded', message: 'recreated', isKilled: true }],
  },
};

const sandboxConfig = { labels: { team: 'a' }, annotations: { 'example.com/pull': 'yes' } };

const imagePullJobTemplate = {
  pullSecrets: ['registry-secret'],
  selector: { ...selector('node'), names: ['node-a', 'node-b'] },
  podSelector: selector('web'),
  parallelism: '50%',
  pullPolicy: { timeoutSeconds: 300, backoffLimit: 2 },
  completionPolicy: { type: 'Always', activeDeadlineSeconds: 1200, ttlSecondsAfterFinished: 3600 },
  sandboxConfig,
  imagePullPolicy: 'Always',
};

export const IMAGE_PULL_JOB = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', metadata: { name: 'every-field', namespace: 'default' },
  spec: { image: 'registry.example/app:1.0', ...imagePullJobTemplate },
  status: {
    startTime: '2026-01-02T03:04:05Z', completionTime: '2026-01-02T03:05:05Z',
    desired: 3, active: 0, succeeded: 2, failed: 1, message: 'node-c failed', failedNodes: ['node-c'],
  },
};

export const NODE_IMAGE = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'every-field' },
  spec: {
    images: {
      'registry.example/app': {
        pullSecrets: [{ namespace: 'default', name: 'registry-secret' }, { name: 'no-namespace' }],
        tags: [{
          tag: '1.0',
          createdAt: '2026-01-02T03:04:05Z',
          pullPolicy: { timeoutSeconds: 300, backoffLimit: 2, ttlSecondsAfterFinished: 600, activeDeadlineSeconds: 900 },
          ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', name: 'every-field', namespace: 'default', uid: '0a1b2c3d-0000-4000-8000-000000000000', resourceVersion: '42', fieldPath: 'spec.image' }],
          version: 7,
          imagePullPolicy: 'IfNotPresent',
        }],
        sandboxConfig,
      },
    },
  },
  status: {
    desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0,
    imageStatuses: {
      'registry.example/app': {
        tags: [{
          tag: '1.0', phase: 'Succeeded', progress: 100, startTime: '2026-01-02T03:04:05Z', completionTime: '2026-01-02T03:05:05Z',
          version: 7, imageID: 'sha256:0123', message: 'pulled',
        }],
      },
    },
    firstSyncStatus: { syncAt: '2026-01-02T03:05:05Z', status: 'Succeeded', message: 'first sync' },
  },
};

/** v1beta1 adds `pullSecrets[].mode` (spec/openkruise-v1.9.md §5.1). */
export const NODE_IMAGE_V1BETA1 = {
  ...NODE_IMAGE,
  apiVersion: 'apps.kruise.io/v1beta1',
  metadata: { name: 'every-field-v1beta1' },
  spec: {
    images: {
      'registry.example/app': {
        ...NODE_IMAGE.spec.images['registry.example/app'],
        pullSecrets: [{ namespace: 'kruise-daemon-config', name: 'registry-secret-a1b2c3', mode: 'batch' }, { name: 'no-namespace' }],
      },
    },
  },
};

export const IMAGE_LIST_PULL_JOB = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImageListPullJob', metadata: { name: 'every-field', namespace: 'default' },
  spec: { images: ['registry.example/app:1.0', 'registry.example/tool:2.0'], ...imagePullJobTemplate },
  status: {
    startTime: '2026-01-02T03:04:05Z', completionTime: '2026-01-02T03:05:05Z',
    desired: 2, active: 0, completed: 2, succeeded: 1,
    failedImageStatuses: [{ imagePullJob: 'every-field-x7k2p', name: 'registry.example/tool:2.0', message: "Please check for details which nodes failed by 'kubectl get ImagePullJob every-field-x7k2p'." }],
  },
};

export const RESOURCE_DISTRIBUTION = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'every-field' },
  spec: {
    resource: {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 'shared-secret', labels: { app: 'x' } },
      type: 'Opaque', data: { key: 'dmFsdWU=' }, 'x-future-secret-field': 'kept',
    },
    targets: {
      allNamespaces: false,
      excludedNamespaces: { list: [{ name: 'kube-system' }, {}] },
      includedNamespaces: { list: [{ name: 'apps' }] },
      namespaceLabelSelector: selector('ns'),
    },
  },
  status: {
    desired: 2, succeeded: 1, failed: 1, observedGeneration: 2,
    conditions: [{ type: 'CreateResourceFailed', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'Forbidden', failedNamespace: ['apps'] }],
  },
};

const HOOK = { labelsHandler: { 'example.com/hold': 'true' }, finalizersHandler: ['example.com/drain'], markPodNotReady: true };

export const CLONESET = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'every-field', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: selector('web'),
    template: {
      metadata: { labels: { app: 'web', tier: 'web' } },
      spec: { containers: [{ ...container('main'), 'x-future-container-field': 'kept' }], 'x-future-pod-field': { kept: true } },
    },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    scaleStrategy: { podsToDelete: ['every-field-abcde'], maxUnavailable: '10%', disablePVCReuse: true },
    updateStrategy: {
      type: 'InPlaceIfPossible', partition: 1, maxUnavailable: '20%', maxSurge: 1, paused: false,
      priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: selector('canary') }], orderPriority: [{ orderedKey: 'rank' }] },
      scatterStrategy: [{ key: 'zone', value: 'a' }],
      inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
    },
    revisionHistoryLimit: 5,
    minReadySeconds: 3,
    lifecycle: { preDelete: HOOK, inPlaceUpdate: HOOK, preNormal: HOOK },
    progressDeadlineSeconds: 600,
  },
  status: {
    observedGeneration: 2, replicas: 3, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 1, updatedReadyReplicas: 1,
    updatedAvailableReplicas: 1, expectedUpdatedReplicas: 2, updateRevision: 'every-field-7d9f8b6c5', currentRevision: 'every-field-6c5b4a3d2',
    collisionCount: 0, labelSelector: 'app=web,tier in (api,web)',
    conditions: [
      { type: 'FailedScale', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'Forbidden', message: 'quota' },
      { type: 'Progressing', status: 'True', lastUpdateTime: '2026-01-02T03:04:06Z', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'CloneSetUpdated', message: 'CloneSet is progressing' },
    ],
  },
};

const probe = {
  exec: { command: ['/bin/sh', '-c', '/healthy.sh'] },
  initialDelaySeconds: 3, timeoutSeconds: 2, periodSeconds: 5, successThreshold: 1, failureThreshold: 3, terminationGracePeriodSeconds: 10,
};

export const POD_PROBE_MARKER = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'every-field', namespace: 'default' },
  spec: {
    selector: selector('web'),
    probes: [
      {
        name: 'healthy', containerName: 'main', probe,
        markerPolicy: [
          { state: 'Succeeded', labels: { 'server-healthy': 'true' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' } },
          { state: 'Failed', labels: { 'server-healthy': 'false' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-10' } },
        ],
        podConditionType: 'game.kruise.io/healthy',
      },
      { name: 'web', containerName: 'main', probe: { httpGet: { path: '/health', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] } }, podConditionType: 'game.kruise.io/web' },
      { name: 'tcp', containerName: 'main', probe: { tcpSocket: { port: 9000 } }, podConditionType: 'game.kruise.io/tcp' },
    ],
  },
  status: { observedGeneration: 1, matchedPods: 2 },
};

export const NODE_POD_PROBE = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: 'every-field' },
  spec: {
    podProbes: [{
      name: 'web-0', namespace: 'default', uid: '0f8e7d6c-1111-2222-3333-444455556666', IP: '10.0.0.5',
      probes: [
        { name: 'every-field#healthy', containerName: 'main', probe },
        { name: 'every-field#tcp', containerName: 'main', probe: { tcpSocket: { port: 9000 } } },
      ],
    }],
  },
  status: {
    podProbeStatuses: [{
      name: 'web-0', namespace: 'default', uid: '0f8e7d6c-1111-2222-3333-444455556666',
      probeStates: [{ name: 'every-field#healthy', state: 'Succeeded', lastProbeTime: '2026-01-02T03:04:05Z', lastTransitionTime: '2026-01-02T03:04:00Z', message: 'ok' }],
    }],
  },
};

const NODE_TERM = {
  matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] }],
  matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }],
};
const SUBSET_STATUS = {
  name: 'subset-a', replicas: 2,
  conditions: [{ type: 'Schedulable', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'Scheduled', message: 'all pods scheduled' }],
  missingReplicas: 1, creatingPods: { 'web-abcde': '2026-01-02T03:04:05Z' }, deletingPods: { 'web-fghij': '2026-01-02T03:04:06Z' },
};

export const WORKLOAD_SPREAD = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', metadata: { name: 'every-field', namespace: 'default' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'every-field' },
    targetFilter: { selector: selector('web'), replicasPathList: ['spec.replicas'] },
    subsets: [
      {
        name: 'subset-a', requiredNodeSelectorTerm: NODE_TERM, preferredNodeSelectorTerms: [{ weight: 10, preference: NODE_TERM }],
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoExecute', tolerationSeconds: 30 }],
        maxReplicas: 3, patch: { metadata: { labels: { subset: 'a' } }, 'x-future-patch-field': { kept: true } },
      },
      { name: 'subset-b' },
    ],
    scheduleStrategy: { type: 'Adaptive', adaptive: { disableSimulationSchedule: true, rescheduleCriticalSeconds: 30 } },
  },
  status: {
    observedGeneration: 1,
    subsetStatuses: [SUBSET_STATUS],
    versionedSubsetStatuses: { versionIgnored: [SUBSET_STATUS] },
  },
};

export const POD_UNAVAILABLE_BUDGET = {
  apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'every-field', namespace: 'default' },
  // selector and targetRef together pass the schema (the webhook refuses them together; the CRD test has no webhook).
  spec: { selector: selector('pub'), targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxUnavailable: '25%', minAvailable: 2 },
  status: {
    observedGeneration: 3, disruptedPods: { 'web-0': '2026-01-02T03:04:05Z' }, unavailablePods: { 'web-1': '2026-01-02T03:04:06Z' },
    unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 4,
  },
};

/** Each fixture with the plural of its kind; `version` where the CRD serves more than v1alpha1 (default v1alpha1). */
export const CRD_FIXTURES: readonly { plural: string; version?: string; object: { apiVersion: string; kind: string; metadata: object; spec?: unknown; status?: unknown } }[] = [
  { plural: 'clonesets', object: CLONESET },
  { plural: 'sidecarsets', object: SIDECARSET },
  { plural: 'sidecarsets', version: 'v1beta1', object: SIDECARSET_V1BETA1 },
  { plural: 'containerrecreaterequests', object: CONTAINER_RECREATE_REQUEST },
  { plural: 'imagepulljobs', object: IMAGE_PULL_JOB },
  { plural: 'nodeimages', object: NODE_IMAGE },
  { plural: 'nodeimages', version: 'v1beta1', object: NODE_IMAGE_V1BETA1 },
  { plural: 'imagelistpulljobs', object: IMAGE_LIST_PULL_JOB },
  { plural: 'resourcedistributions', object: RESOURCE_DISTRIBUTION },
  { plural: 'podunavailablebudgets', object: POD_UNAVAILABLE_BUDGET },
  { plural: 'podprobemarkers', object: POD_PROBE_MARKER },
  { plural: 'nodepodprobes', object: NODE_POD_PROBE },
  { plural: 'workloadspreads', object: WORKLOAD_SPREAD },
];
