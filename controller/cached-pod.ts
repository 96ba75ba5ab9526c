// What the manager's pod cache keeps of a pod. Every controller reads pods from one shared cache of every pod in the
// cluster, and a whole pod is mostly what no controller reads (volumes, tolerations, mounts, probes, resources,
// container state history); at 10,000 pods that is most of the process's memory. The same idea as a client-go cache
// TransformFunc.
//
// Kept, by reader:
// - metadata, all but managedFields: every controller (keys, labels, annotations, uid and resourceVersion for writes
//   and events, deletionTimestamp, creationTimestamp for update order).
// - spec.nodeName: imagepulljob targets, update order, SidecarTerminator's node. spec.readinessGates: CRR readiness.
//   spec.restartPolicy: SidecarTerminator (Job-like pods).
// - containers and initContainers: name, image (SidecarSet state and upgrade), env (launch-priority barrier),
//   restartPolicy (native sidecars), resources and resizePolicy (SidecarSet in-place resize), ports (PodProbeMarker
//   named probe ports).
// - status.phase, conditions: readiness everywhere. containerStatuses and initContainerStatuses: name, image,
//   imageID, ready, started, restartCount, containerID and state (SidecarSet consistency, CRR sync, update order),
//   resources and allocatedResources (whether kubelet applied a SidecarSet resize). podIP: the PodProbeMarker
//   controller writes it into the NodePodProbe.
//
// A controller that needs another field adds it here. Writes never start from a cached pod as a whole: the
// SidecarSet controller patches only what it changes (sidecarset/pod-writes.ts).
import type { Container, Pod } from '../shared/api/meta.js';

type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

function container(c: Container): Container {
  const out: Container = { name: c.name };
  if (c.image !== undefined) out.image = c.image;
  if (c.env !== undefined) out.env = c.env;
  if (c.restartPolicy !== undefined) out.restartPolicy = c.restartPolicy;
  if (c.resources !== undefined) out.resources = c.resources;
  if (c.resizePolicy !== undefined) out.resizePolicy = c.resizePolicy;
  if (c.ports !== undefined) out.ports = c.ports;
  return out;
}

function containerStatus(s: ContainerStatus): ContainerStatus {
  const out = { name: s.name, image: s.image, imageID: s.imageID, ready: s.ready, restartCount: s.restartCount } as ContainerStatus;
  if (s.started !== undefined) out.started = s.started;
  if (s.containerID !== undefined) out.containerID = s.containerID;
  if (s.state !== undefined) out.state = s.state;
  if (s.resources !== undefined) out.resources = s.resources;
  if (s.allocatedResources !== undefined) out.allocatedResources = s.allocatedResources;
  return out;
}

/** The cached form of a pod (a new object; `pod` is left as it is). */
export function cachedPod(pod: Pod): Pod {
  const { managedFields: _m, ...metadata } = pod.metadata ?? {};
  const spec = pod.spec;
  const status = pod.status;
  const out: Pod = { metadata };
  if (pod.apiVersion !== undefined) out.apiVersion = pod.apiVersion;
  if (pod.kind !== undefined) out.kind = pod.kind;
  if (spec) {
    out.spec = { containers: spec.containers?.map(container) } as Pod['spec'];
    if (spec.nodeName !== undefined) out.spec!.nodeName = spec.nodeName;
    if (spec.restartPolicy !== undefined) out.spec!.restartPolicy = spec.restartPolicy;
    if (spec.initContainers !== undefined) out.spec!.initContainers = spec.initContainers.map(container);
    if (spec.readinessGates !== undefined) out.spec!.readinessGates = spec.readinessGates;
  }
  if (status) {
    out.status = {};
    if (status.phase !== undefined) out.status.phase = status.phase;
    if (status.conditions !== undefined) out.status.conditions = status.conditions;
    if (status.podIP !== undefined) out.status.podIP = status.podIP;
    if (status.containerStatuses !== undefined) out.status.containerStatuses = status.containerStatuses.map(containerStatus);
    if (status.initContainerStatuses !== undefined) out.status.initContainerStatuses = status.initContainerStatuses.map(containerStatus);
  }
  return out;
}
