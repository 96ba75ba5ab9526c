// apps.kruise.io/v1alpha1 NodePodProbe (spec/node-probes-and-sidecar-lifecycle.md §2). Cluster-scoped, one object per
// node named after it: the manager writes `spec` (which probes to run on which pod), the daemon owns `status` (their
// results). JSON field names and order as upstream's Go types, including the capitalised `IP`.
import { Type, type Static } from '@sinclair/typebox';
import type { V1Probe } from '@kubernetes/client-node';
import type { KruiseObject } from './meta.js';
import { CORE_V1, Core, KindSchema, Obj, Str, Time } from './schema.js';

export type ProbeState = 'Succeeded' | 'Failed' | 'Unknown';
export const ProbeSucceeded: ProbeState = 'Succeeded';
export const ProbeFailed: ProbeState = 'Failed';
export const ProbeUnknown: ProbeState = 'Unknown';

/** ContainerProbeSpec inlines core/v1 Probe; stored and run without Kubernetes' probe defaults (§6.3). */
export const ContainerProbeSpecSchema = Core<V1Probe>(`${CORE_V1}Probe`, 'container probe spec');
export type ContainerProbeSpec = V1Probe;

export const ContainerProbeSchema = Obj('ContainerProbe is one probe to run in one container of a pod.', {
  name: Str('Name is podProbeMarker.Name#probe.Name'),
  containerName: Str('container name'),
  probe: ContainerProbeSpecSchema,
});
export type ContainerProbe = Static<typeof ContainerProbeSchema>;

export const PodProbeSchema = Obj('PodProbe lists the probes of one pod on the node.', {
  name: Str('pod name'),
  namespace: Str('pod namespace'),
  uid: Str('pod uid'),
  IP: Str('pod ip'),
  probes: Type.Optional(Type.Array(ContainerProbeSchema, { description: 'Custom container probe, supports Exec, Tcp, and returns the result to Pod yaml' })),
});
export type PodProbe = Static<typeof PodProbeSchema>;

export const NodePodProbeSpecSchema = Obj('NodePodProbeSpec defines the desired state of NodePodProbe', {
  podProbes: Type.Optional(Type.Array(PodProbeSchema, { description: 'PodProbes lists, per pod on the node, the probes kruise-daemon runs.' })),
});
export type NodePodProbeSpec = Static<typeof NodePodProbeSpecSchema>;

export const ContainerProbeStateSchema = Obj('ContainerProbeState is the last result of one probe.', {
  name: Str('Name is podProbeMarker.Name#probe.Name'),
  state: Type.Unsafe<ProbeState>(Str('container probe exec state, True or False')),
  lastProbeTime: Type.Optional(Time('Last time we probed the condition.')),
  lastTransitionTime: Type.Optional(Time('Last time the condition transitioned from one status to another.')),
  message: Type.Optional(Str("If Status=True, Message records the return result of Probe. If Status=False, Message records Probe's error message")),
});
export type ContainerProbeState = Static<typeof ContainerProbeStateSchema>;

export const PodProbeStatusSchema = Obj('PodProbeStatus holds the probe results of one pod.', {
  name: Str('pod name'),
  namespace: Str('pod namespace'),
  uid: Str('pod uid'),
  probeStates: Type.Optional(Type.Array(ContainerProbeStateSchema, { description: 'pod probe result' })),
});
export type PodProbeStatus = Static<typeof PodProbeStatusSchema>;

export const NodePodProbeStatusSchema = Obj('NodePodProbeStatus defines the observed state of NodePodProbe', {
  podProbeStatuses: Type.Optional(Type.Array(PodProbeStatusSchema, { description: 'pod probe results' })),
});
export type NodePodProbeStatus = Static<typeof NodePodProbeStatusSchema>;

export const NodePodProbeSchema = KindSchema('NodePodProbe is the Schema for the NodePodProbe API', NodePodProbeSpecSchema, NodePodProbeStatusSchema);
export type NodePodProbe = KruiseObject<NodePodProbeSpec, NodePodProbeStatus>;

/** `<ppm>#<probe>`: the only link from a node probe (and its result) back to its PodProbeMarker (§1.4). */
export const nodeProbeName = (ppm: string, probe: string): string => `${ppm}#${probe}`;
