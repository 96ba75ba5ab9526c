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
import { resourceDistributionController } from '../resourcedistribution/controller.js';
import { sidecarSetController } from '../sidecarset/controller.js';
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
  spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx:1.25', resources: { limits: { cpu: '1' } } }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', containerID: 'containerd://a', ready: true, restartCount: 0, state: { running: { startedAt: '2025-01-01T00:00:00Z' } } }] },
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
    controller: resourceDistributionController, resource: resources.resourceDistributions, kind: 'ResourceDistribution', key: 'rd',
    fixture: () => ({ apiVersion: K, kind: 'ResourceDistribution', metadata: { name: 'rd', generation: 1 }, spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { a: 'b' } }, targets: { includedNamespaces: { list: [{ name: 'default' }] } } } }),
  },
  {
    controller: workloadSpreadController, resource: resources.workloadSpreads, kind: 'WorkloadSpread', key: 'default/ws',
    fixture: () => ({ apiVersion: K, kind: 'WorkloadSpread', metadata: { name: 'ws', namespace: 'default', generation: 1 }, spec: {
      targetRef: { apiVersion: K, kind: 'CloneSet', name: 'web' },
      subsets: [{ name: 'a', maxReplicas: 3, tolerations: [{ key: 'k', operator: 'Exists' }] }, { name: 'b', maxReplicas: '50%' }, { name: 'c' }] },
      status: { versionedSubsetStatuses: { versionIgnored: [{ name: 'a', replicas: 0, missingReplicas: 3, creatingPods: { 'web-0': '2025-06-01T11:59:50Z' } }] } } }),
  },
];
