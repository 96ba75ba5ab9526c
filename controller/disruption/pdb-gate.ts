// The PodDisruptionBudget gate of in-place updates (issue 26 part 4; docs/compatibility.md "PodDisruptionBudgets and
// in-place updates"). The SidecarSet and CloneSet controllers ask it right before they restart a pod's sidecar or
// container in place; it takes one disruption from the PDB selecting the pod as the eviction API does (decision:
// shared/domain/disruption/pdb-budget.ts), written to the PDB's status subresource with the resourceVersion read, so
// a concurrent eviction (kubectl drain) and this write cannot both spend the last disruption: one gets 409 and reads
// again. A SidecarSet or CloneSet annotated `kruise-ts.io/respect-pdb: "false"` skips the gate.
import type { Logger } from 'pino';
import type { ObjectMeta, Pod } from '../../shared/api/meta.js';
import type { Clock } from '../../shared/clock.js';
import { budgetsFor, decide, withoutFinished, type PodDisruptionBudget } from '../../shared/domain/disruption/pdb-budget.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';

/** SidecarSet / CloneSet annotation: `"false"` turns the PDB gate off for its in-place updates. */
export const RespectPdbAnnotation = 'kruise-ts.io/respect-pdb';

export type GateVerdict = { go: true } | { go: false; reason: string; retryAfterMs: number };

export interface PdbGate {
  /** Whether `pod`, updated by `owner`, may be restarted in place now (a disruption taken when one was needed). */
  admit(owner: { metadata?: ObjectMeta }, pod: Pod): Promise<GateVerdict>;
  /**
   * A pod of the cache changed: when this gate took its disruption and the pod is Ready again since, the record is
   * dropped from the PDB at once (resolves when written, or when there was nothing to do), so the budget comes back
   * without waiting for the next admit or the disruption controller's 2-minute timeout.
   */
  podChanged(pod: Pod): Promise<void>;
}

export interface PdbGateDeps {
  rest: KubeRest;
  clock: Clock;
  log?: Logger;
  pdbs: Cache<PodDisruptionBudget>;
  /** A pod of the cache by namespace and name (finished disruptions are told by the pods' Ready condition). */
  pod: (namespace: string, name: string) => Pod | undefined;
}

/** Writes tried per admit: a conflict (a drain's eviction, another controller) reads the PDB again. */
export const ATTEMPTS = 3;
export const MIN_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;
/** Pods whose backoff is remembered at most (an entry goes when the pod gets through). */
const MAX_BACKOFFS = 10_000;

const rvNumber = (p: PodDisruptionBudget | undefined) => Number(p?.metadata?.resourceVersion ?? -1);

export function pdbGate(deps: PdbGateDeps): PdbGate {
  /** Per PDB: one admit at a time in this process, and the copy it last wrote (newer than the cache for a while). */
  const locks = new Map<string, Promise<unknown>>();
  const written = new Map<string, PodDisruptionBudget>();
  const backoff = new Map<string, number>();
  /** Pods this gate took a disruption for (pod key → PDB key), until the record is dropped or the pod goes. */
  const taken = new Map<string, string>();

  const serial = <T>(key: string, f: () => Promise<T>): Promise<T> => {
    const run = (locks.get(key) ?? Promise.resolve()).then(f, f);
    const tail = run.catch(() => undefined);
    locks.set(key, tail);
    void tail.then(() => { if (locks.get(key) === tail) locks.delete(key); });
    return run;
  };

  const wait = (podKey: string, reason: string): GateVerdict => {
    const n = backoff.get(podKey) ?? 0;
    if (backoff.size >= MAX_BACKOFFS && !backoff.has(podKey)) backoff.clear();
    backoff.set(podKey, n + 1);
    return { go: false, reason, retryAfterMs: Math.min(MAX_RETRY_MS, MIN_RETRY_MS * 2 ** Math.min(n, 10)) };
  };
  const go = (podKey: string): GateVerdict => { backoff.delete(podKey); return { go: true }; };

  const admitOne = async (pod: Pod, podKey: string, budget: PodDisruptionBudget, pdbKey: string): Promise<GateVerdict> => {
    const ns = pod.metadata?.namespace ?? '';
    const podNamed = (name: string) => deps.pod(ns, name);
    const mine = written.get(pdbKey);
    let current: PodDisruptionBudget | undefined = rvNumber(mine) > rvNumber(budget) ? mine : budget;
    for (let attempt = 1; attempt <= ATTEMPTS && current; attempt++) {
      const d = decide(pod, [current], deps.clock.now(), podNamed);
      if (d.kind === 'free') return go(podKey);
      if (d.kind === 'wait' && (!d.status || !d.pdb)) return wait(podKey, d.reason);
      try {
        const out = await deps.rest.replace<PodDisruptionBudget & { metadata: object }>(resources.podDisruptionBudgets,
          withTypeMeta(resources.podDisruptionBudgets, { ...d.pdb, status: d.status }) as PodDisruptionBudget & { metadata: object }, { subresource: 'status' });
        written.set(pdbKey, out);
        if (d.kind === 'wait') return wait(podKey, d.reason);
        if (taken.size >= MAX_BACKOFFS) taken.clear();
        taken.set(podKey, pdbKey);
        deps.log?.info({ pod: podKey, pdb: pdbKey, disruptionsAllowed: d.status.disruptionsAllowed }, 'took a disruption from the PodDisruptionBudget for an in-place update');
        return go(podKey);
      } catch (err) {
        if (isNotFound(err)) return go(podKey); // the PDB is gone: nothing to respect
        if (!isConflict(err)) throw err;
        current = await deps.rest.find<PodDisruptionBudget & { metadata: object }>(resources.podDisruptionBudgets, { namespace: ns, name: current.metadata?.name ?? '' });
        if (current) written.set(pdbKey, current);
        else return go(podKey);
      }
    }
    return wait(podKey, `the PodDisruptionBudget ${pdbKey} kept changing under ${ATTEMPTS} writes`);
  };

  /** Drops the finished disruptions of the PDB, with the resourceVersion read; a conflict reads it again. */
  const release = async (pdbKey: string, ns: string): Promise<void> => {
    const podNamed = (name: string) => deps.pod(ns, name);
    const cached = deps.pdbs.get(pdbKey);
    const mine = written.get(pdbKey);
    let current = rvNumber(mine) > rvNumber(cached) ? mine : cached;
    for (let attempt = 1; attempt <= ATTEMPTS && current; attempt++) {
      const status = withoutFinished(current, podNamed);
      if (!status) return;
      try {
        const out = await deps.rest.replace<PodDisruptionBudget & { metadata: object }>(resources.podDisruptionBudgets,
          withTypeMeta(resources.podDisruptionBudgets, { ...current, status }) as PodDisruptionBudget & { metadata: object }, { subresource: 'status' });
        written.set(pdbKey, out);
        for (const name of Object.keys(current.status?.disruptedPods ?? {})) if (!(name in (status.disruptedPods ?? {}))) taken.delete(`${ns}/${name}`);
        deps.log?.info({ pdb: pdbKey }, 'dropped finished in-place disruptions from the PodDisruptionBudget');
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) throw err;
        current = await deps.rest.find<PodDisruptionBudget & { metadata: object }>(resources.podDisruptionBudgets, { namespace: ns, name: current.metadata?.name ?? '' });
        if (current) written.set(pdbKey, current);
      }
    }
  };

  return {
    async podChanged(pod) {
      const podKey = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
      const pdbKey = taken.get(podKey);
      if (!pdbKey) return;
      const live = deps.pod(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
      if (!live || live.metadata?.deletionTimestamp) { taken.delete(podKey); return; }
      if (live.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') return;
      await serial(pdbKey, () => release(pdbKey, live.metadata?.namespace ?? ''));
    },

    async admit(owner, pod) {
      const podKey = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
      if (owner.metadata?.annotations?.[RespectPdbAnnotation] === 'false') return { go: true };
      const budgets = budgetsFor(pod, deps.pdbs.list());
      if (budgets.length !== 1) {
        const d = decide(pod, budgets, deps.clock.now(), () => undefined);
        if (d.kind === 'wait') return wait(podKey, d.reason);
        return go(podKey);
      }
      const budget = budgets[0]!;
      const pdbKey = `${budget.metadata?.namespace ?? ''}/${budget.metadata?.name ?? ''}`;
      return serial(pdbKey, () => admitOne(pod, podKey, budget, pdbKey));
    },
  };
}
