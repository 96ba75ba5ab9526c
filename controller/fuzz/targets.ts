// What the controller fuzzer reconciles (issue 23 item 4): each controller with one object of its kind, built from a
// valid fixture with numeric extremes, long names and long lists (shared/testing/fuzz-extremes.ts), in a small world
// of nodes, namespaces, pods and secrets it reads. The numbers are honest: replicas of 100,000 and 2^31−1, thousands
// of pullSecrets (reviews N-H1 and N-M3).
import type { KubernetesObject } from '@kubernetes/client-node';
import { defaultCloneSet } from '../../shared/domain/cloneset/defaults.js';
import { resources, type Resource } from '../../shared/kube/resources.js';
import type { Controller } from '../types.js';
import { cloneSetController } from '../cloneset/controller.js';
import { containerRecreateRequestController } from '../containerrecreaterequest/controller.js';
import { imageListPullJobController } from '../imagelistpulljob/controller.js';
import { imagePullJobController } from '../imagepulljob/controller.js';
import { nodeImageController } from '../nodeimage/controller.js';
import { nodePodProbeController } from '../nodepodprobe/controller.js';
import { podProbeMarkerController } from '../podprobemarker/controller.js';
import { resourceDistributionController } from '../resourcedistribution/controller.js';
import { sidecarSetController } from '../sidecarset/controller.js';
import { podUnavailableBudgetController } from '../podunavailablebudget/controller.js';
import { sidecarTerminatorController } from '../sidecarterminator/controller.js';
import { workloadSpreadController } from '../workloadspread/controller.js';

type Obj = KubernetesObject & Record<string, unknown>;

export interface FuzzTarget {
  controller: Controller;
  resource: Resource;
  kind: string;
  /** A valid object of the kind; the fuzzer applies extremes to a copy. */
  fixture: () => Obj;
  /** The queue key of the object. */
  key: string;
}

const K = 'apps.kruise.io/v1alpha1';
const B = 'apps.kruise.io/v1beta1';
const node = (name: string): Obj => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { zone: 'a' }, creationTimestamp: '2025-01-01T00:00:00Z' as never }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
const pod = (name: string): Obj => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' } },
  spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx:1.25', resources: { limits: { cpu: '1' } }, ports: [{ name: 'http', containerPort: 80 }] }] },
  status: { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', containerID: 'containerd://a', ready: true, restartCount: 0, state: { running: { startedAt: '2025-01-01T00:00:00Z' } } }] },
});

/** The objects every case starts with. */
export const WORLD: readonly [Resource, Obj][] = [
  [resources.nodes, node('n1')], [resources.nodes, node('n2')],
  [resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }],
  [resources.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-daemon-config' } }],
  [resources.pods, pod('web-0')], [resources.pods, pod('web-1')],
  [resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret-0', namespace: 'default' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': 'e30=' } }],
  [resources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { a: 'b' } }],
];

export const TARGETS: readonly FuzzTarget[] = [
  {
    controller: cloneSetController, resource: resources.cloneSets, kind: 'CloneSet', key: 'default/web',
    fixture: () => defaultCloneSet({ apiVersion: K, kind: 'CloneSet', metadata: { name: 'web', namespace: 'default', generation: 1 }, spec: {
      replicas: 3, selector: { matchLabels: { app: 'cs' } }, template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } } }) as unknown as Obj,
  },
  {
    controller: sidecarSetController, resource: resources.sidecarSets, kind: 'SidecarSet', key: 'side',
    fixture: () => ({ apiVersion: B, kind: 'SidecarSet', metadata: { name: 'side', generation: 1 }, spec: { selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'RollingUpdate' }, containers: [{ name: 'side', image: 'busybox:1' }] } }),
  },
  {
    controller: imagePullJobController, resource: resources.imagePullJobs, kind: 'ImagePullJob', key: 'default/j',
    fixture: () => ({ apiVersion: B, kind: 'ImagePullJob', metadata: { name: 'j', namespace: 'default', uid: 'j-uid', creationTimestamp: '2025-06-01T11:00:00Z' as never }, spec: { image: 'nginx:1.25', parallelism: 2, pullSecrets: ['secret-0'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } } }),
  },
  {
    controller: imageListPullJobController, resource: resources.imageListPullJobs, kind: 'ImageListPullJob', key: 'default/l',
    fixture: () => ({ apiVersion: B, kind: 'ImageListPullJob', metadata: { name: 'l', namespace: 'default', uid: 'l-uid' }, spec: { images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: { type: 'Always' } } }),
  },
  {
    controller: nodeImageController, resource: resources.nodeImages, kind: 'NodeImage', key: 'n1',
    fixture: () => ({ apiVersion: B, kind: 'NodeImage', metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [{ tag: '1.25', createdAt: '2025-06-01T11:00:00Z', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } } }),
  },
  {
    controller: containerRecreateRequestController, resource: resources.containerRecreateRequests, kind: 'ContainerRecreateRequest', key: 'default/crr',
    fixture: () => ({ apiVersion: K, kind: 'ContainerRecreateRequest', metadata: { name: 'crr', namespace: 'default', creationTimestamp: '2025-06-01T11:59:00Z' as never, labels: { 'crr.apps.kruise.io/pod-uid': 'uid-web-0', 'crr.apps.kruise.io/active': 'true' } }, spec: { podName: 'web-0', containers: [{ name: 'app' }], strategy: { failurePolicy: 'Fail' } }, status: { phase: 'Recreating' } }),
  },
  {
    controller: podProbeMarkerController, resource: resources.podProbeMarkers, kind: 'PodProbeMarker', key: 'default/ppm',
    fixture: () => ({ apiVersion: K, kind: 'PodProbeMarker', metadata: { name: 'ppm', namespace: 'default', generation: 1 }, spec: { selector: { matchLabels: { app: 'web' } }, probes: [
      { name: 'healthy', containerName: 'app', probe: { exec: { command: ['/bin/true'] }, periodSeconds: 5 }, podConditionType: 'game.kruise.io/healthy', markerPolicy: [{ state: 'Succeeded', labels: { healthy: 'true' } }] },
      { name: 'web', containerName: 'app', probe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' } }, podConditionType: 'game.kruise.io/web' },
    ] } }),
  },
  {
    controller: nodePodProbeController, resource: resources.nodePodProbes, kind: 'NodePodProbe', key: 'n1',
    fixture: () => ({ apiVersion: K, kind: 'NodePodProbe', metadata: { name: 'n1' },
      spec: { podProbes: [{ name: 'web-0', namespace: 'default', uid: 'uid-web-0', IP: '10.0.0.1', probes: [{ name: 'ppm#healthy', containerName: 'app', probe: { exec: { command: ['/bin/true'] } } }] }] },
      status: { podProbeStatuses: [{ name: 'web-0', namespace: 'default', uid: 'uid-web-0', probeStates: [{ name: 'ppm#healthy', state: 'Succeeded', lastProbeTime: '2025-06-01T11:00:00Z', lastTransitionTime: '2025-06-01T11:00:00Z', message: 'ok' }] }] } }),
  },
  {
    controller: resourceDistributionController, resource: resources.resourceDistributions, kind: 'ResourceDistribution', key: 'rd',
    fixture: () => ({ apiVersion: K, kind: 'ResourceDistribution', metadata: { name: 'rd', generation: 1 }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { a: 'b' } }, targets: { includedNamespaces: { list: [{ name: 'default' }] } } } }),
  },
  {
    controller: podUnavailableBudgetController, resource: resources.podUnavailableBudgets, kind: 'PodUnavailableBudget', key: 'default/pub',
    fixture: () => ({ apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'pub', namespace: 'default', generation: 1, annotations: { 'pub.kruise.io/protect-total-replicas': '2' } },
      spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: '50%' },
      status: { unavailableAllowed: 0, currentAvailable: 0, desiredAvailable: 0, totalReplicas: 0, disruptedPods: { 'web-0': '2025-06-01T11:59:59Z' }, unavailablePods: { 'web-1': '2025-06-01T11:59:55Z' } } }),
  }, {
    // A Job pod whose main container has exited, with a CRR-stopped sidecar, an ignore-exit-code one and a native one.
    controller: sidecarTerminatorController, resource: resources.pods, kind: 'Pod', key: 'default/job',
    fixture: () => {
      const marker = [{ name: 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT', value: 'true' }];
      const running = (name: string) => ({ name, image: 'busybox:1', imageID: '', containerID: `containerd://${name}`, ready: true, restartCount: 0, state: { running: { startedAt: '2025-06-01T11:00:00Z' } } });
      return {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'job', namespace: 'default', uid: 'uid-job' },
        spec: {
          nodeName: 'n1', restartPolicy: 'Never',
          initContainers: [{ name: 'native', image: 'busybox:1', restartPolicy: 'Always', env: marker }],
          containers: [{ name: 'main', image: 'busybox:1' }, { name: 'side', image: 'busybox:1', env: marker },
            { name: 'quiet', image: 'busybox:1', env: [...marker, { name: 'KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE', value: 'true' }] }],
        },
        status: { phase: 'Running', containerStatuses: [
          { ...running('main'), ready: false, state: { terminated: { exitCode: 0, finishedAt: '2025-06-01T11:59:00Z' } } }, running('side'), running('quiet')] },
      } as Obj;
    },
  }, {
    controller: workloadSpreadController, resource: resources.workloadSpreads, kind: 'WorkloadSpread', key: 'default/ws',
    fixture: () => ({ apiVersion: K, kind: 'WorkloadSpread', metadata: { name: 'ws', namespace: 'default', generation: 1 }, spec: {
      targetRef: { apiVersion: K, kind: 'CloneSet', name: 'web' },
      subsets: [{ name: 'a', maxReplicas: 3, tolerations: [{ key: 'k', operator: 'Exists' }] }, { name: 'b', maxReplicas: '50%' }, { name: 'c' }] },
      status: { versionedSubsetStatuses: { versionIgnored: [{ name: 'a', replicas: 0, missingReplicas: 3, creatingPods: { 'web-0': '2025-06-01T11:59:50Z' } }] } } }),
  },
];
