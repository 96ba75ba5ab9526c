// The WorkloadSpread steps of the pod webhooks (spec/availability-guards.md §12, §13): on pod CREATE, place the pod in
// a subset of the WorkloadSpread of its workload and record it; on DELETE and eviction, record the deletion. The
// decisions are pure (shared/domain/workloadspread); this file gathers their inputs and writes the status with the
// read resourceVersion, retrying on Conflict from a fresh read, as upstream's RetryOnConflict does.
import { randomUUID } from 'node:crypto';
import type { Pod } from '../../shared/api/meta.js';
import type { WorkloadSpread, WorkloadSpreadStatus } from '../../shared/api/workload-spread.js';
import { AdmissionDeniedError } from '../../shared/errors.js';
import { podMatchedWorkloadSpread } from '../../shared/domain/workloadspread/annotation.js';
import { injectSubset } from '../../shared/domain/workloadspread/inject.js';
import { matchWorkloadSpread, OwnerNotFoundError } from '../../shared/domain/workloadspread/match.js';
import { needsReplicas } from '../../shared/domain/workloadspread/max-replicas.js';
import { controllerOf, isPodActive, podVersion } from '../../shared/domain/workloadspread/pod-version.js';
import { workloadReplicas } from '../../shared/domain/workloadspread/replicas.js';
import { chooseOnCreate, onlyUnlimitedSubset, recordDeletion, statefulSetSubset, type Decision } from '../../shared/domain/workloadspread/subset-choice.js';
import { parseGroupVersion } from '../../shared/domain/workloadspread/targets.js';
import type { AdmissionRequest } from '../admission/review.js';
import type { AdmissionCaches } from '../caches.js';
import { lastWrittenCopies, keyedMutex } from './workload-spread-copies.js';

export interface WorkloadSpreadPodDeps {
  /** FEATURE_GATES WorkloadSpread. */
  enabled: boolean;
  caches: Pick<AdmissionCaches, 'workloadSpreadsIn' | 'workloadSpreadApi' | 'fetchPod'>;
  now: () => Date;
  random: () => number;
  newUID?: () => string;
  sleep?: (ms: number) => Promise<void>;
}

/** retry.DefaultBackoff: 4 attempts, 10 ms ×5 with jitter 0.1 between them. */
const ATTEMPTS = 4;
const backoffMs = (attempt: number, random: () => number) => 10 * 5 ** attempt * (1 + 0.1 * random());

const isDryRun = (options: unknown): boolean => {
  const d = (options as { dryRun?: unknown } | undefined)?.dryRun;
  return Array.isArray(d) && d.length > 0;
};

export interface WorkloadSpreadPodSteps {
  /** §12: the pod, placed (a new object) or unchanged; synchronous when no WorkloadSpread is in the namespace. */
  onCreate(pod: Pod, req: AdmissionRequest): Pod | Promise<Pod>;
  /** §13: records a DELETE or eviction in the pod's subset; never denies (errors answer 400). */
  onDelete(req: AdmissionRequest): Promise<void> | void;
}

export function workloadSpreadPodSteps(deps: WorkloadSpreadPodDeps): WorkloadSpreadPodSteps {
  const api = deps.caches.workloadSpreadApi;
  const copies = lastWrittenCopies();
  const lock = keyedMutex();
  const newUID = deps.newUID ?? randomUUID;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const replicasOf = async (ws: WorkloadSpread): Promise<number> => {
    if (!needsReplicas(ws)) return 0;
    const ref = ws.spec!.targetRef;
    const gv = parseGroupVersion(ref.apiVersion);
    if (!gv) return 0;
    return workloadReplicas(ws, await api.fetchWorkload(gv.group, ref.kind, ws.metadata?.namespace ?? '', ref.name));
  };

  /** Up to ATTEMPTS decide-and-write rounds; the first reads the newer of cache and last write, later ones the apiserver. */
  async function decideAndWrite(informerCopy: WorkloadSpread, decide: (ws: WorkloadSpread, replicas: number) => Decision): Promise<Decision> {
    const key = informerCopy.metadata?.uid ?? `${informerCopy.metadata?.namespace}/${informerCopy.metadata?.name}`;
    const ns = informerCopy.metadata?.namespace ?? '';
    const name = informerCopy.metadata?.name ?? '';
    return lock(key, async () => {
      let replicas: number | undefined;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (attempt > 0) await sleep(backoffMs(attempt - 1, deps.random));
        const ws = attempt === 0 ? copies.newer(key, informerCopy) : await api.fetchWorkloadSpread(ns, name);
        if (!ws) return {};
        replicas ??= await replicasOf(ws);
        const d = decide(ws, replicas);
        if (!d.status) return d;
        const written = await api.updateWorkloadSpreadStatus({ ...ws, status: d.status });
        if (written !== 'conflict') {
          copies.remember(key, written);
          return d;
        }
      }
      throw new Error(`Operation cannot be fulfilled on workloadspreads.apps.kruise.io "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    });
  }

  async function place(pod: Pod, candidates: readonly WorkloadSpread[], namespace: string): Promise<Pod> {
    const scoped: Pod = pod.metadata?.namespace ? pod : { ...pod, metadata: { ...pod.metadata, namespace } };
    let ws: WorkloadSpread | undefined;
    try {
      ws = await matchWorkloadSpread(scoped, candidates, api.fetchWorkload);
    } catch (err) {
      throw new AdmissionDeniedError(err instanceof OwnerNotFoundError ? err.message : String((err as Error).message ?? err), 500);
    }
    if (!ws) return pod;
    let decision: Decision;
    const only = onlyUnlimitedSubset(ws);
    if (only !== undefined) decision = { subset: only };
    else if (ws.spec!.targetRef.kind === 'StatefulSet') decision = { subset: statefulSetSubset(ws, pod.metadata?.name ?? '') };
    else {
      const version = podVersion(pod);
      const now = deps.now();
      try {
        decision = await decideAndWrite(ws, (copy, replicas) => chooseOnCreate(copy, pod, { version, replicas, now, newUID }));
      } catch (err) {
        throw new AdmissionDeniedError((err as Error).message, 500, { cause: err });
      }
    }
    return decision.subset === undefined ? pod : injectSubset(ws, pod, decision.subset, decision.generatedUID);
  }

  return {
    onCreate(pod, req) {
      if (!deps.enabled || req.operation !== 'CREATE' || req.subResource || isDryRun(req.options)) return pod;
      if (!isPodActive(pod) || !controllerOf(pod)) return pod;
      const namespace = req.namespace ?? pod.metadata?.namespace ?? '';
      const candidates = deps.caches.workloadSpreadsIn(namespace);
      if (candidates.length === 0) return pod;
      return place(pod, candidates, namespace);
    },

    onDelete(req) {
      if (!deps.enabled) return;
      const eviction = req.operation === 'CREATE' && req.subResource === 'eviction';
      const deletion = req.operation === 'DELETE' && !req.subResource;
      if (!eviction && !deletion) return;
      if (deletion && isDryRun(req.options)) return;
      if (eviction && isDryRun((req.object as { deleteOptions?: unknown } | undefined)?.deleteOptions)) return;
      return record(req, eviction);
    },
  };

  async function record(req: AdmissionRequest, eviction: boolean): Promise<void> {
    const namespace = req.namespace ?? '';
    let pod: Pod | undefined;
    if (eviction) {
      try {
        pod = await deps.caches.fetchPod(namespace, req.name ?? '');
      } catch (err) {
        throw new AdmissionDeniedError((err as Error).message, 400, { cause: err });
      }
      if (!pod) throw new AdmissionDeniedError(`pods "${req.name}" not found`, 400);
    } else pod = req.oldObject as Pod | undefined;
    if (!pod) return;
    const matched = podMatchedWorkloadSpread(pod);
    if (!matched || !isPodActive(pod) || !controllerOf(pod)) return;
    const ws = deps.caches.workloadSpreadsIn(namespace).find((w) => w.metadata?.name === matched.name);
    if (!ws || onlyUnlimitedSubset(ws) !== undefined || ws.spec?.targetRef?.kind === 'StatefulSet') return;
    const version = podVersion(pod);
    const now = deps.now();
    try {
      await decideAndWrite(ws, (copy, replicas) => {
        const status: WorkloadSpreadStatus | undefined = recordDeletion(copy, pod, matched.subset, { version, replicas, now, newUID });
        return status ? { subset: matched.subset, status } : {};
      });
    } catch (err) {
      throw new AdmissionDeniedError((err as Error).message, 400, { cause: err });
    }
  }
}
