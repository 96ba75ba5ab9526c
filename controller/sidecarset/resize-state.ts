// In-place resize of sidecar containers (Kubernetes 1.33+ `pods/resize`, KEP-1287), as pure reads of a pod: the
// patch that brings its sidecars to the SidecarSet's resources, whether kubelet has applied what the spec asks for,
// and whether the node refused it. Kubelet reports the applied values in `status.containerStatuses[].resources` and,
// while it cannot apply them, the `PodResizePending` condition (reason `Deferred` or `Infeasible`).
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { compareQuantityValues, parseQuantityValue } from '../../shared/domain/quantity.js';
import { declaredSidecars, podContainers, podStatuses } from './native-sidecars.js';

type ResourceList = Record<string, unknown> | undefined;
interface Requirements { requests?: ResourceList; limits?: ResourceList }

/** The resources pods/resize changes; others (ephemeral-storage, extended resources) are immutable. */
const RESIZABLE = ['cpu', 'memory'] as const;

function sameQuantity(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  try {
    return compareQuantityValues(parseQuantityValue(String(a)), parseQuantityValue(String(b))) === 0;
  } catch {
    return String(a) === String(b);
  }
}

function sameList(a: ResourceList, b: ResourceList): boolean {
  return RESIZABLE.every((r) => sameQuantity(a?.[r], b?.[r]));
}

const sameRequirements = (a: Requirements | undefined, b: Requirements | undefined) =>
  sameList(a?.requests, b?.requests) && sameList(a?.limits, b?.limits);

/** A strategic-merge resource list that turns `from` into `to` for cpu and memory (null removes). */
function listPatch(from: ResourceList, to: ResourceList): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const r of RESIZABLE) {
    if (sameQuantity(from?.[r], to?.[r])) continue;
    out[r] = to?.[r] ?? null;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A resize body: cpu and memory of containers (and, kruise-ts, native sidecars) by name. */
export interface ResizeBody { spec: { containers?: object[]; initContainers?: object[] } }

/**
 * The body of `PATCH pods/NAME/resize` that gives `containers` of the pod (regular sidecars and native ones, in
 * `spec.initContainers`) the SidecarSet's cpu and memory, or null when the pod's spec already has them (an earlier
 * resize whose bookkeeping write has not happened yet, or failed).
 */
export function resizePatch(set: SidecarSet, pod: Pod, containers: readonly string[]): ResizeBody | null {
  const want = declaredSidecars(set);
  const entries = (list: readonly { name: string; resources?: unknown }[] | undefined) => {
    const out: object[] = [];
    for (const c of list ?? []) {
      if (!containers.includes(c.name) || !want.has(c.name)) continue;
      const have = c.resources as Requirements | undefined;
      const to = want.get(c.name)!.resources as Requirements | undefined;
      const requests = listPatch(have?.requests, to?.requests);
      const limits = listPatch(have?.limits, to?.limits);
      if (!requests && !limits) continue;
      out.push({ name: c.name, resources: { ...(requests && { requests }), ...(limits && { limits }) } });
    }
    return out.length ? out : undefined;
  };
  const regular = entries(pod.spec?.containers);
  const native = entries(pod.spec?.initContainers);
  if (!regular && !native) return null;
  return { spec: { ...(regular && { containers: regular }), ...(native && { initContainers: native }) } };
}

/**
 * Kubelet reports for each of `names` the cpu and memory the pod's spec asks for. A container whose status carries no
 * `resources` (kubelet without in-place resize, a fake node) counts as applied: there is nothing to wait for.
 */
export function isResizeApplied(pod: Pod, names: ReadonlySet<string>): boolean {
  const spec = new Map(podContainers(pod).map((c) => [c.name, c.resources as Requirements | undefined]));
  for (const s of podStatuses(pod)) {
    if (!names.has(s.name) || !s.resources) continue;
    if (!sameRequirements(spec.get(s.name), s.resources as Requirements)) return false;
  }
  return true;
}

/** The message of a `PodResizePending` condition with reason `Infeasible` (the node can never fit it), if any. */
export function infeasibleResize(pod: Pod): string | undefined {
  const c = pod.status?.conditions?.find((x) => x.type === 'PodResizePending' && x.status === 'True' && x.reason === 'Infeasible');
  return c ? (c.message || 'the node cannot fit the requested resources') : undefined;
}
