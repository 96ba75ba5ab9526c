// What a WorkloadSpread controller reads of its target (spec/availability-guards.md §14.3, §14.5): the pods the
// workload controls (through its ReplicaSets for a Deployment), its replica count, and its current version.
import { isDeepStrictEqual } from 'node:util';
import type { Pod } from '../../shared/api/meta.js';
import { VersionIgnored, type WorkloadSpread } from '../../shared/api/workload-spread.js';
import { workloadReplicas, type Workload } from '../../shared/domain/workloadspread/replicas.js';
import { controllerOf } from '../../shared/domain/workloadspread/pod-version.js';

export interface TargetReads {
  /** The workload by kind and name in the namespace (CloneSet, Deployment, ReplicaSet, Job, StatefulSet); undefined when missing. */
  workload(kind: string, group: string, namespace: string, name: string): Promise<Workload | undefined>;
  /** Objects (pods or ReplicaSets) whose controller has this UID. */
  podsControlledBy(uid: string): Pod[];
  replicaSetsControlledBy(uid: string): Workload[];
}

export interface Target { workload?: Workload; pods: Pod[]; replicas: number }

const controlledBy = (uid: string) => (o: { metadata?: { ownerReferences?: Array<{ controller?: boolean; uid: string }> } }) => controllerOf(o as never)?.uid === uid;

/** The target's pods (inactive ones included) and replicas; replicas 0 ⇒ no pods, as upstream's GetPodsForRef. */
export async function readTarget(ws: WorkloadSpread, group: string, reads: TargetReads): Promise<Target> {
  const ref = ws.spec!.targetRef;
  const workload = await reads.workload(ref.kind, group, ws.metadata?.namespace ?? '', ref.name);
  if (!workload) return { pods: [], replicas: 0 };
  const replicas = workloadReplicas(ws, workload);
  const uid = workload.metadata?.uid ?? '';
  if (replicas === 0 && ref.kind !== 'Job') return { workload, pods: [], replicas };
  const pods = ref.kind === 'Deployment'
    ? reads.replicaSetsControlledBy(uid).flatMap((rs) => reads.podsControlledBy(rs.metadata?.uid ?? ''))
    : reads.podsControlledBy(uid).filter(controlledBy(uid));
  return { workload, pods, replicas };
}

/** The workload's current version (§14.5); throws the NotFound upstream aborts with when it cannot be told. */
export function latestVersion(ws: WorkloadSpread, target: Target, reads: TargetReads): string {
  const w = target.workload;
  if (!w) return '';
  const kind = ws.spec!.targetRef.kind;
  if (kind === 'ReplicaSet') return w.metadata?.labels?.['pod-template-hash'] ?? '';
  if (kind === 'Deployment') {
    const template = w.spec?.template ?? {};
    for (const rs of reads.replicaSetsControlledBy(w.metadata?.uid ?? '')) {
      if (rs.metadata?.deletionTimestamp) continue;
      const t = structuredClone(rs.spec?.template ?? {});
      const hash = t.metadata?.labels?.['pod-template-hash'];
      if (t.metadata?.labels) delete t.metadata.labels['pod-template-hash'];
      if (hash && isDeepStrictEqual(t, template)) return hash;
    }
    throw new Error(`Deployment.apps "${ws.metadata?.namespace}/${ref(ws)} latest version" not found`);
  }
  return VersionIgnored;
}

const ref = (ws: WorkloadSpread) => ws.spec!.targetRef.name;
