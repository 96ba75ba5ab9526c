// Which WorkloadSpread governs a new pod (spec/availability-guards.md §12.1): the first in the namespace whose
// targetRef is the pod's controller or an owner up its controller chain, and whose targetFilter selects the pod.
// The owners are read through `fetch` (the webhook's API lookups, one per owner, memoised per request).
import type { Pod } from '../../api/meta.js';
import type { WorkloadSpread } from '../../api/workload-spread.js';
import { compileLabelSelector } from '../label-selector.js';
import { controllerOf } from './pod-version.js';
import type { Workload } from './replicas.js';
import { isKnownWorkload, parseGroupVersion } from './targets.js';

/** A workload by group, kind and name in the pod's namespace; undefined when NotFound; throws on other errors. */
export type FetchWorkload = (group: string, kind: string, namespace: string, name: string) => Promise<Workload | undefined>;

type OwnerRef = { apiVersion: string; kind: string; name: string };

/** The apiserver's NotFound text, which upstream returns as the pod CREATE's error (§18 #9). */
export class OwnerNotFoundError extends Error {
  constructor(group: string, kind: string, name: string) {
    super(`${kind}${group ? `.${group}` : ''} "${name}" not found`);
    this.name = 'OwnerNotFoundError';
  }
}

/** Owner chains of the built-in kinds are two deep (ReplicaSet → Deployment); the bound only stops a cycle. */
const MAX_DEPTH = 8;

async function referenceEqual(ws: WorkloadSpread, owner: OwnerRef | undefined, namespace: string, fetch: FetchWorkload, depth: number): Promise<boolean> {
  if (!owner || depth > MAX_DEPTH) return false;
  const target = ws.spec!.targetRef;
  const tgv = parseGroupVersion(target.apiVersion);
  const ogv = parseGroupVersion(owner.apiVersion);
  if (!tgv || !ogv) throw new SkipWorkloadSpread();
  if (tgv.group === ogv.group && target.kind === owner.kind && target.name === owner.name) return true;
  if (!isKnownWorkload({ group: ogv.group, kind: owner.kind })) return false;
  let obj: Workload | undefined;
  try {
    obj = await fetch(ogv.group, owner.kind, namespace, owner.name);
  } catch {
    throw new SkipWorkloadSpread();
  }
  if (!obj) throw new OwnerNotFoundError(ogv.group, owner.kind, owner.name);
  return referenceEqual(ws, controllerOf(obj), namespace, fetch, depth + 1);
}

class SkipWorkloadSpread extends Error {}

/** targetFilter: absent selects all; a nil selector selects nothing (§18 #8); an invalid one skips the WS. */
function selected(ws: WorkloadSpread, pod: Pod): boolean {
  const filter = ws.spec?.targetFilter;
  if (!filter) return true;
  if (!filter.selector) return false;
  try {
    return compileLabelSelector(filter.selector)(pod.metadata?.labels ?? {});
  } catch {
    throw new SkipWorkloadSpread();
  }
}

/**
 * The governing WorkloadSpread, or undefined. `candidates` are the namespace's, in list order. Throws
 * OwnerNotFoundError when an owner up the chain is missing (upstream fails the CREATE then).
 */
export async function matchWorkloadSpread(pod: Pod, candidates: readonly WorkloadSpread[], fetch: FetchWorkload): Promise<WorkloadSpread | undefined> {
  const owner = controllerOf(pod);
  if (!owner) return undefined;
  const gv = parseGroupVersion(owner.apiVersion);
  if (!gv || !isKnownWorkload({ group: gv.group, kind: owner.kind })) return undefined;
  const memo = new Map<string, Promise<Workload | undefined>>();
  const cached: FetchWorkload = (g, k, ns, n) => {
    const key = `${g}/${k}/${n}`;
    let p = memo.get(key);
    if (!p) memo.set(key, (p = fetch(g, k, ns, n)));
    return p;
  };
  const namespace = pod.metadata?.namespace ?? '';
  for (const ws of candidates) {
    if (!ws.spec?.targetRef || ws.metadata?.deletionTimestamp) continue;
    try {
      if ((await referenceEqual(ws, owner, namespace, cached, 0)) && selected(ws, pod)) return ws;
    } catch (err) {
      if (err instanceof SkipWorkloadSpread) continue;
      throw err;
    }
  }
  return undefined;
}
