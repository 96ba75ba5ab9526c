// apps.kruise.io/v1alpha1 PodProbeMarker (spec/node-probes-and-sidecar-lifecycle.md §1). Namespaced: custom probes run
// by kruise-daemon in a pod's containers, their results written to the pod as a condition and/or labels and
// annotations (markerPolicy). JSON field names and order as upstream's Go types.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject, LabelSelector } from './meta.js';
import { ContainerProbeSpecSchema, type ProbeState } from './node-pod-probe.js';
import { Core, CrdRequired, Int64, KindSchema, META_V1, Obj, Str, StrMap } from './schema.js';

export const ProbeMarkerPolicySchema = Obj('ProbeMarkerPolicy is what to patch on the pod for one probe state.', {
  state: Type.Unsafe<ProbeState>(Str('probe status, True or False For example: State=Succeeded, annotations[controller.kubernetes.io/pod-deletion-cost] = \'10\'. State=Failed, annotations[controller.kubernetes.io/pod-deletion-cost] = \'-10\'. In addition, if State=Failed is not defined, Exec execution fails, and the annotations[controller.kubernetes.io/pod-deletion-cost] will be Deleted')),
  labels: Type.Optional(StrMap('Patch Labels pod.labels')),
  annotations: Type.Optional(StrMap('Patch annotations pod.annotations')),
});
export type ProbeMarkerPolicy = Static<typeof ProbeMarkerPolicySchema>;

export const PodContainerProbeSchema = Obj('PodContainerProbe is one custom probe of a PodProbeMarker.', {
  name: Str('probe name, unique within the Pod(Even between different containers, they cannot be the same)'),
  containerName: Str('container name'),
  probe: ContainerProbeSpecSchema,
  markerPolicy: Type.Optional(Type.Array(ProbeMarkerPolicySchema, { description: 'According to the execution result of ContainerProbe, perform specific actions, such as: patch Pod labels, annotations, ReadinessGate Condition It cannot be null at the same time as PodConditionType.' })),
  podConditionType: Type.Optional(Str('If it is not empty, the Probe execution result will be recorded on the Pod condition. It cannot be null at the same time as MarkerPolicy. For example PodConditionType=game.kruise.io/healthy, pod.status.condition.type = game.kruise.io/healthy. When probe is Succeeded, pod.status.condition.status = True. Otherwise, when the probe fails to execute, pod.status.condition.status = False.')),
});
export type PodContainerProbe = Static<typeof PodContainerProbeSchema>;

export const PodProbeMarkerSpecSchema = Obj('PodProbeMarkerSpec defines the desired state of PodProbeMarker', {
  // Required in the CRD; optional here because the webhook speaks first of a nil selector or probe list (§3.2).
  selector: CrdRequired(Core<LabelSelector>(`${META_V1}LabelSelector`, "Selector is a label query over pods that should exec custom probe It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors")),
  probes: CrdRequired(Type.Array(PodContainerProbeSchema, { description: 'Custom container probe, current only support Exec(). Probe Result will record in Pod.Status.Conditions, and condition.type=probe.name. condition.status=True indicates probe success condition.status=False indicates probe fails' })),
});
export type PodProbeMarkerSpec = Static<typeof PodProbeMarkerSpecSchema>;

export const PodProbeMarkerStatusSchema = Obj('PodProbeMarkerStatus defines the observed state of PodProbeMarker', {
  observedGeneration: CrdRequired(Int64("observedGeneration is the most recent generation observed for this PodProbeMarker. It corresponds to the PodProbeMarker's generation, which is updated on mutation by the API Server.")),
  matchedPods: Type.Optional(Int64('matched Pods')),
});
export type PodProbeMarkerStatus = Static<typeof PodProbeMarkerStatusSchema>;

export const PodProbeMarkerSchema = KindSchema('PodProbeMarker is the Schema for the PodProbeMarker API', PodProbeMarkerSpecSchema, PodProbeMarkerStatusSchema);
export type PodProbeMarker = KruiseObject<PodProbeMarkerSpec, PodProbeMarkerStatus>;

/** Finalizer held until the PPM's probes are removed from every NodePodProbe (§1.4, §4.5). */
export const NodePodProbeCleanupFinalizer = 'kruise.io/node-pod-probe-cleanup';
/** Serverless path only (§7): the matched probes without markerPolicy, as JSON. */
export const PodProbeMarkerAnnotationKey = 'kruise.io/podprobe';
/** Sorted, comma-joined names of the PPMs whose probes a pod carries; overrides selector matching (§4.4). */
export const PodProbeMarkerListAnnotationKey = 'kruise.io/podprobemarker-list';
