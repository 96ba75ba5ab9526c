// Which SidecarSets a pod change concerns, and how soon to look (spec/daemon-and-controllers.md §6.9). The cache hands
// us only the new pod, so the facts the old one had are kept as a small summary per pod.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import { hasSidecarContainers, isPodReadyCondition, isPodStateConsistent } from './pod-state.js';
import { nativesUp } from './native-sidecars.js';
import { infeasibleResize } from './resize-state.js';

/** The parts of a pod that decide whether an update is worth a reconcile. */
export interface PodSummary {
  resourceVersion: string;
  deleting: boolean;
  ready: boolean;
  /** Kubelet reports a resize of the pod Infeasible (PodResizePending). */
  infeasible: boolean;
  /** kruise-ts: the SidecarSets' in-place native sidecars are all up (a restarting one leaves the pod Ready). */
  nativesUp: boolean;
  labels: string;
  /** isPodStateConsistent per SidecarSet name. */
  consistent: ReadonlyMap<string, boolean>;
}

const labelsKey = (pod: Pod) => {
  const l = pod.metadata?.labels ?? {};
  return JSON.stringify(Object.keys(l).sort().map((k) => [k, l[k]]));
};

/**
 * Summaries are kept per cached pod; their labels key and consistency map are shared between pods with the same
 * content (a few distinct values across thousands of pods), the table starting over past 4,096 entries.
 */
const shared = new Map<string, string | ReadonlyMap<string, boolean>>();
function share<T extends string | ReadonlyMap<string, boolean>>(key: string, make: () => T): T {
  let v = shared.get(key) as T | undefined;
  if (v !== undefined) return v;
  if (shared.size >= 4096) shared.clear();
  shared.set(key, (v = make()));
  return v;
}

/** `sets` are the pod's injected SidecarSets that exist and whose containers the pod carries. */
export function summarize(pod: Pod, sets: readonly SidecarSet[]): PodSummary {
  const labels = labelsKey(pod);
  const consistent = sets.map((s) => [s.metadata?.name ?? '', isPodStateConsistent(s, pod)] as const);
  return {
    resourceVersion: pod.metadata?.resourceVersion ?? '',
    deleting: Boolean(pod.metadata?.deletionTimestamp),
    ready: isPodReadyCondition(pod),
    infeasible: infeasibleResize(pod) !== undefined,
    nativesUp: sets.every((s) => nativesUp(s, pod)),
    labels: share(`l${labels}`, () => labels),
    consistent: share(`c${JSON.stringify(consistent)}`, () => new Map(consistent)),
  };
}

/** getPodMatchedSidecarSets: the injected SidecarSets (by name) that exist and whose containers the pod has. */
export function relevantSets(pod: Pod, injected: Iterable<string>, get: (name: string) => SidecarSet | undefined): SidecarSet[] {
  const out: SidecarSet[] = [];
  for (const name of injected) {
    const s = get(name);
    if (s && hasSidecarContainers(s, pod)) out.push(s);
  }
  return out;
}

export interface Enqueue { set: string; afterMs: number }

/**
 * A new pod concerns all its relevant SidecarSets. An update (new resourceVersion) concerns those not NotUpdate when
 * deletion started or readiness flipped (now), else when consistency flipped (after 5 s, giving kubelet time to report
 * the rest), else when labels changed and the SidecarSet upgrades by selector (now). kruise-ts: also when kubelet
 * starts or stops reporting a resize Infeasible (now: the SidecarSet reports it), and when a native sidecar stops or
 * starts serving (now: its restart is the pod's disruption, the pod's Ready does not move).
 */
export function podChangeEnqueues(before: PodSummary | undefined, after: PodSummary, sets: readonly SidecarSet[]): Enqueue[] {
  const names = sets.map((s) => s.metadata?.name ?? '');
  if (!before) return names.map((set) => ({ set, afterMs: 0 }));
  if (before.resourceVersion === after.resourceVersion) return [];
  const statusChanged = (!before.deleting && after.deleting) || (!before.deleting && before.ready !== after.ready) || before.infeasible !== after.infeasible ||
    before.nativesUp !== after.nativesUp;
  const out: Enqueue[] = [];
  for (const s of sets) {
    if (s.spec?.updateStrategy?.type === 'NotUpdate') continue;
    const set = s.metadata?.name ?? '';
    if (statusChanged) out.push({ set, afterMs: 0 });
    else if ((before.consistent.get(set) ?? after.consistent.get(set)) !== after.consistent.get(set)) out.push({ set, afterMs: 5_000 });
    else if (before.labels !== after.labels && s.spec?.updateStrategy?.selector) out.push({ set, afterMs: 0 });
  }
  return out;
}
