// The API resources kruise-ts reads and writes, named once, so informers, REST calls and RBAC speak of the same
// group/version/plural. Paths follow the apiserver's URL layout.
export interface Resource {
  /** '' for the core group. */
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

const core = (plural: string, kind: string, namespaced = true): Resource => ({ group: '', version: 'v1', plural, kind, namespaced });
const kruise = (plural: string, kind: string, namespaced: boolean, version = 'v1alpha1'): Resource => ({ group: 'apps.kruise.io', version, plural, kind, namespaced });

export const resources = {
  pods: core('pods', 'Pod'),
  persistentVolumeClaims: core('persistentvolumeclaims', 'PersistentVolumeClaim'),
  nodes: core('nodes', 'Node', false),
  namespaces: core('namespaces', 'Namespace', false),
  configMaps: core('configmaps', 'ConfigMap'),
  secrets: core('secrets', 'Secret'),
  events: core('events', 'Event'),
  controllerRevisions: { group: 'apps', version: 'v1', plural: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true },
  podDisruptionBudgets: { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true },
  leases: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
  mutatingWebhookConfigurations: { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false },
  validatingWebhookConfigurations: { group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false },
  subjectAccessReviews: { group: 'authorization.k8s.io', version: 'v1', plural: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false },
  customResourceDefinitions: { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false },
  // v1beta1, the storage version since OpenKruise v1.9: read natively, no /convert call per object; its daemon and
  // controllers use v1beta1 for the image kinds too (spec/openkruise-v1.9.md §1, §5.1).
  sidecarSets: kruise('sidecarsets', 'SidecarSet', false, 'v1beta1'),
  nodeImages: kruise('nodeimages', 'NodeImage', false, 'v1beta1'),
  imagePullJobs: kruise('imagepulljobs', 'ImagePullJob', true, 'v1beta1'),
  imageListPullJobs: kruise('imagelistpulljobs', 'ImageListPullJob', true, 'v1beta1'),
  containerRecreateRequests: kruise('containerrecreaterequests', 'ContainerRecreateRequest', true),
  nodePodProbes: kruise('nodepodprobes', 'NodePodProbe', false),
  podProbeMarkers: kruise('podprobemarkers', 'PodProbeMarker', true),
  resourceDistributions: kruise('resourcedistributions', 'ResourceDistribution', false),
  cloneSets: kruise('clonesets', 'CloneSet', true),
  podUnavailableBudgets: { group: 'policy.kruise.io', version: 'v1alpha1', plural: 'podunavailablebudgets', kind: 'PodUnavailableBudget', namespaced: true },
  // WorkloadSpread and the workloads it may target (spec/availability-guards.md §10.4).
  workloadSpreads: kruise('workloadspreads', 'WorkloadSpread', true),
  advancedStatefulSets: kruise('statefulsets', 'StatefulSet', true, 'v1beta1'),
  deployments: { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true },
  replicaSets: { group: 'apps', version: 'v1', plural: 'replicasets', kind: 'ReplicaSet', namespaced: true },
  statefulSets: { group: 'apps', version: 'v1', plural: 'statefulsets', kind: 'StatefulSet', namespaced: true },
  jobs: { group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job', namespaced: true },
} as const satisfies Record<string, Resource>;

export const apiVersionOf = (r: Resource): string => (r.group ? `${r.group}/${r.version}` : r.version);

export interface PathOptions {
  /** Ignored for cluster-scoped resources; omitted on a namespaced one means "all namespaces" (list/watch only). */
  namespace?: string;
  name?: string;
  /** `resize`: pods only (Kubernetes 1.33+). */
  subresource?: 'status' | 'resize';
}

/** `/api/v1/namespaces/ns/pods/name/status`, `/apis/apps.kruise.io/v1alpha1/sidecarsets`, … */
export function resourcePath(r: Resource, o: PathOptions = {}): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespaced && o.namespace ? `/namespaces/${encodeURIComponent(o.namespace)}` : '';
  const name = o.name ? `/${encodeURIComponent(o.name)}` : '';
  const sub = o.name && o.subresource ? `/${o.subresource}` : '';
  return `${base}${ns}/${r.plural}${name}${sub}`;
}

/**
 * `obj` with apiVersion and kind of `r`. Items of a List (and so cached objects) of built-in types come without
 * them; request bodies and Event subjects should always carry them.
 */
export function withTypeMeta<T extends object>(r: Resource, obj: T): T & { apiVersion: string; kind: string } {
  return { ...obj, apiVersion: apiVersionOf(r), kind: r.kind };
}
