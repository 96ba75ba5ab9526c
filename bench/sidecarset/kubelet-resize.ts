// What a kubelet with in-place resize (Kubernetes 1.33+) reports that kwok does not: each running container's
// allocated `resources` in its status. The apiserver reads that field as the node's support for resize (without it,
// pods/resize answers "Pod running on node without support for resize"), and after a resize the kubelet writes the
// new allocation there, which is what the SidecarSet controller waits for. The bench kubelet uses these to report
// resources from the start and to answer each resize, without a restart (resizePolicy NotRequired, the default).
import type { Pod } from '../../shared/api/meta.js';

type Container = NonNullable<Pod['spec']>['containers'][number];
type Quantities = Record<string, string>;
interface Allocation { requests?: Quantities; limits?: Quantities }

/** cpu and memory only: what kubelet actuates and reports. */
const cpuMemory = (q: Record<string, unknown> | undefined): Quantities | undefined => {
  const out: Quantities = {};
  for (const k of ['cpu', 'memory']) if (q?.[k] !== undefined) out[k] = String(q[k]);
  return Object.keys(out).length ? out : undefined;
};

/** The allocation kubelet reports for a container: its spec's cpu and memory requests and limits. */
export function allocationOf(c: Container): { resources: Allocation; allocatedResources?: Quantities } {
  const requests = cpuMemory(c.resources?.requests as Record<string, unknown> | undefined);
  const limits = cpuMemory(c.resources?.limits as Record<string, unknown> | undefined);
  return { resources: { ...(requests && { requests }), ...(limits && { limits }) }, ...(requests && { allocatedResources: requests }) };
}

const same = (a: Allocation | undefined, b: Allocation) => JSON.stringify(cpuMemory(a?.requests) ?? {}) === JSON.stringify(b.requests ?? {})
  && JSON.stringify(cpuMemory(a?.limits) ?? {}) === JSON.stringify(b.limits ?? {});

/** Whether a running container's reported allocation differs from its spec (never reported, or resized since). */
export function allocationDrift(pod: Pod): boolean {
  const spec = new Map([...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => [c.name, c]));
  return [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].some((s) => {
    const c = spec.get(s.name);
    return !!c && !!s.state?.running && !same(s.resources as Allocation | undefined, allocationOf(c).resources);
  });
}
