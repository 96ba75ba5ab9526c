// The apps.kruise.io CustomResourceDefinitions kruise-ts installs: names, scope, printer columns and the versions
// with their schemas, as upstream's CRDs have them. `npm run crds` writes charts/kruise-ts/files/crds from this
// list (scripts/crds.ts). A new kind: its schema in shared/api/<kind>.ts and one entry here; a new version: one
// more entry in `versions`, e.g. `version('v1beta1', SidecarSetV1beta1Schema, columns)` after
// `v1alpha1(SidecarSetSchema, columns, false)` (exactly one storage version).
import type { TSchema } from '@sinclair/typebox';
import { KRUISE_GROUP } from './meta.js';
import { CloneSetSchema } from './cloneset.js';
import { ContainerRecreateRequestSchema } from './container-recreate-request.js';
import { ImageListPullJobSchema } from './image-list-pull-job.js';
import { ImagePullJobSchema } from './image-pull-job.js';
import { NodeImageSchema } from './node-image.js';
import { PodUnavailableBudgetSchema, POLICY_GROUP } from './pod-unavailable-budget.js';
import { NodeImageSchema as NodeImageV1beta1Schema } from './v1beta1/node-image.js';
import { NodePodProbeSchema } from './node-pod-probe.js';
import { PodProbeMarkerSchema } from './pod-probe-marker.js';
import { ResourceDistributionSchema } from './resource-distribution.js';
import { SidecarSetSchema } from './sidecarset.js';
import { SidecarSetSchema as SidecarSetV1beta1Schema } from './v1beta1/sidecarset.js';
import { WorkloadSpreadSchema } from './workload-spread.js';

export interface PrinterColumn { name: string; type: 'integer' | 'string' | 'date' | 'number' | 'boolean'; jsonPath: string; description?: string; priority?: number }

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema: TSchema;
  printerColumns: readonly PrinterColumn[];
  /** The status subresource (every kind here has one). */
  status: boolean;
  /** The scale subresource (kubectl scale, HPA), as CloneSet's. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath: string };
  /**
   * false: the open Kubernetes types (SidecarSet containers, volumes) are schemaless objects in this version's CRD
   * schema, without their field docs (scripts/crd-schema.ts), so a CRD serving two versions stays under kubectl
   * apply's 256 KiB; kubectl explain defaults to the preferred (newest) version, which keeps them.
   */
  documentOpenTypes?: boolean;
}

export interface CrdSpec {
  /** API group; absent: apps.kruise.io (PodUnavailableBudget is policy.kruise.io). */
  group?: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames?: readonly string[];
  scope: 'Namespaced' | 'Cluster';
  versions: readonly CrdVersion[];
  /**
   * Webhook: the apiserver converts between versions through the webhook's /convert (the chart's crds.yaml points
   * the CRD at its Service). Absent: None, the apiserver only rewrites apiVersion.
   */
  conversion?: 'Webhook';
}

const AGE: PrinterColumn = {
  name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
};

/** A served version with a status subresource; `storage: false` once a newer version stores the kind. */
const version = (name: string, schema: TSchema, printerColumns: readonly PrinterColumn[], storage = true): CrdVersion =>
  ({ name, served: true, storage, schema, printerColumns, status: true });
const v1alpha1 = (schema: TSchema, printerColumns: readonly PrinterColumn[], storage = true) => version('v1alpha1', schema, printerColumns, storage);

const SIDECARSET_COLUMNS: readonly PrinterColumn[] = [
  { name: 'MATCHED', type: 'integer', jsonPath: '.status.matchedPods', description: 'The number of pods matched.' },
  { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedPods', description: 'The number of pods matched and updated.' },
  { name: 'READY', type: 'integer', jsonPath: '.status.readyPods', description: 'The number of pods matched and ready.' },
  AGE,
];
const IMAGE_PULL_JOB_COLUMNS: readonly PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Number of all nodes matched by this job' },
  { name: 'ACTIVE', type: 'integer', jsonPath: '.status.active', description: 'Number of image pull task active' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of image pull task succeeded' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of image pull tasks failed' },
  AGE,
];
const IMAGE_LIST_PULL_JOB_COLUMNS: readonly PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Number of image pull job' },
  { name: 'SUCCEEDED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of image pull job succeeded' },
  { name: 'COMPLETED', type: 'integer', jsonPath: '.status.completed', description: 'Number of ImagePullJobs which are completed' },
  AGE,
];
const NODE_IMAGE_COLUMNS: readonly PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.status.desired', description: 'Number of all images on this node' },
  { name: 'PULLING', type: 'integer', jsonPath: '.status.pulling', description: 'Number of image pull task active' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of image pull task succeeded' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of image pull tasks failed' },
  AGE,
];

export const CRDS: readonly CrdSpec[] = [
  {
    kind: 'CloneSet', plural: 'clonesets', singular: 'cloneset', shortNames: ['clone'], scope: 'Namespaced',
    versions: [{
      ...v1alpha1(CloneSetSchema, [
        { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'The desired number of pods.' },
        { name: 'UPDATED', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'The number of pods updated.' },
        { name: 'UPDATED_READY', type: 'integer', jsonPath: '.status.updatedReadyReplicas', description: 'The number of pods updated and ready.' },
        { name: 'UPDATED_AVAILABLE', type: 'integer', jsonPath: '.status.updatedAvailableReplicas', description: 'The number of pods updated and available.' },
        { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas', description: 'The number of pods ready.' },
        { name: 'TOTAL', type: 'integer', jsonPath: '.status.replicas', description: 'The number of currently all pods.' },
        AGE,
        { name: 'CONTAINERS', type: 'string', jsonPath: '.spec.template.spec.containers[*].name', description: 'The containers of currently cloneset.', priority: 1 },
        { name: 'IMAGES', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', description: 'The images of currently cloneset.', priority: 1 },
        { name: 'SELECTOR', type: 'string', jsonPath: '.status.labelSelector', description: 'The selector of currently cloneset.', priority: 1 },
      ]),
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
    }],
  },
  {
    kind: 'ContainerRecreateRequest', plural: 'containerrecreaterequests', singular: 'containerrecreaterequest', shortNames: ['crr'], scope: 'Namespaced',
    versions: [v1alpha1(ContainerRecreateRequestSchema, [
      { name: 'PHASE', type: 'string', jsonPath: '.status.phase', description: 'Phase of this ContainerRecreateRequest.' },
      { name: 'POD', type: 'string', jsonPath: '.spec.podName', description: 'Pod name of this ContainerRecreateRequest.' },
      { name: 'NODE', type: 'string', jsonPath: '.metadata.labels.crr\\.apps\\.kruise\\.io/node-name', description: 'Pod name of this ContainerRecreateRequest.' },
      AGE,
    ])],
  },
  {
    kind: 'ImageListPullJob', plural: 'imagelistpulljobs', singular: 'imagelistpulljob', scope: 'Namespaced',
    // v1.9 stores v1beta1; both versions have the same fields (spec/openkruise-v1.9.md §1, §6).
    versions: ['v1alpha1', 'v1beta1'].map((name) => version(name, ImageListPullJobSchema, IMAGE_LIST_PULL_JOB_COLUMNS, name === 'v1beta1')),
  },
  {
    kind: 'ImagePullJob', plural: 'imagepulljobs', singular: 'imagepulljob', scope: 'Namespaced',
    versions: [
      v1alpha1(ImagePullJobSchema, [...IMAGE_PULL_JOB_COLUMNS,
        { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'Summary of status when job is failed' }], false),
      // v1beta1 drops the MESSAGE column (spec/openkruise-v1.9.md §5.1).
      version('v1beta1', ImagePullJobSchema, IMAGE_PULL_JOB_COLUMNS),
    ],
  },
  {
    kind: 'NodeImage', plural: 'nodeimages', singular: 'nodeimage', scope: 'Cluster',
    versions: [v1alpha1(NodeImageSchema, NODE_IMAGE_COLUMNS, false), version('v1beta1', NodeImageV1beta1Schema, NODE_IMAGE_COLUMNS)],
  },
  {
    group: POLICY_GROUP, kind: 'PodUnavailableBudget', plural: 'podunavailablebudgets', singular: 'podunavailablebudget', shortNames: ['pub'], scope: 'Namespaced',
    // Upstream's columns: no AGE (spec/availability-guards.md §1.1).
    versions: [v1alpha1(PodUnavailableBudgetSchema, [
      { name: 'Allowed', type: 'integer', jsonPath: '.status.unavailableAllowed', description: 'UnavailableAllowed is the number of pods that may still become unavailable.' },
      { name: 'Current', type: 'integer', jsonPath: '.status.currentAvailable', description: 'CurrentAvailable is the number of available pods.' },
      { name: 'Desired', type: 'integer', jsonPath: '.status.desiredAvailable', description: 'DesiredAvailable is the least number of available pods.' },
      { name: 'Total', type: 'integer', jsonPath: '.status.totalReplicas', description: 'TotalReplicas is the expected number of pods.' },
    ])],
  },
  {
    kind: 'NodePodProbe', plural: 'nodepodprobes', singular: 'nodepodprobe', scope: 'Cluster',
    versions: [v1alpha1(NodePodProbeSchema, [])],
  },
  {
    kind: 'PodProbeMarker', plural: 'podprobemarkers', singular: 'podprobemarker', scope: 'Namespaced',
    versions: [v1alpha1(PodProbeMarkerSchema, [])],
  },
  {
    kind: 'ResourceDistribution', plural: 'resourcedistributions', singular: 'resourcedistribution', shortNames: ['distributor'], scope: 'Cluster',
    versions: [v1alpha1(ResourceDistributionSchema, [
      { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'The desired number of desired distribution and syncs.' },
      { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'The number of successful distribution and syncs.' },
      { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'The number of failed distributions and syncs.' },
    ])],
  },
  {
    kind: 'SidecarSet', plural: 'sidecarsets', singular: 'sidecarset', scope: 'Cluster',
    // OpenKruise v1.9: v1beta1 stored, v1alpha1 still served, converted by /convert (spec/openkruise-v1.9.md §1).
    conversion: 'Webhook',
    versions: [{ ...v1alpha1(SidecarSetSchema, SIDECARSET_COLUMNS, false), documentOpenTypes: false }, version('v1beta1', SidecarSetV1beta1Schema, SIDECARSET_COLUMNS)],
  },
  {
    kind: 'WorkloadSpread', plural: 'workloadspreads', singular: 'workloadspread', shortNames: ['ws'], scope: 'Namespaced',
    versions: [v1alpha1(WorkloadSpreadSchema, [
      // As upstream's markers: only Adaptive carries a description.
      { name: 'WorkloadName', type: 'string', jsonPath: '.spec.targetRef.name' },
      { name: 'WorkloadKind', type: 'string', jsonPath: '.spec.targetRef.kind' },
      { name: 'Adaptive', type: 'boolean', jsonPath: '.spec.scheduleStrategy.type[?(@ == "Adaptive")]', description: 'Whether use the adaptive reschedule strategy' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ])],
  },
];

export const crdGroup = (c: CrdSpec): string => c.group ?? KRUISE_GROUP;
export const crdName = (c: CrdSpec) => `${c.plural}.${crdGroup(c)}`;
