// The WorkloadSpread pod steps' API calls, on the main thread (the workers reach them by RPC, pool/rpc.ts). Each call
// is bounded by the REST client's timeout; a Conflict on the status write is a value, so it survives the RPC.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { WorkloadSpread } from '../shared/api/workload-spread.js';
import type { Workload } from '../shared/domain/workloadspread/replicas.js';
import { isConflict, type KubeRest } from '../shared/kube/rest.js';
import { resources, type Resource } from '../shared/kube/resources.js';

/** Reads and the status write the WorkloadSpread pod steps make on the apiserver, each bounded by its timeout. */
export interface WorkloadSpreadApi {
  /** A workload by group/kind/name; undefined when NotFound (or a kind the webhook does not read). */
  fetchWorkload(group: string, kind: string, namespace: string, name: string): Promise<Workload | undefined>;
  /** A fresh read, past every cache; undefined when NotFound. */
  fetchWorkloadSpread(namespace: string, name: string): Promise<WorkloadSpread | undefined>;
  /** A status update with the object's resourceVersion: the written object, or 'conflict'. */
  updateWorkloadSpreadStatus(ws: WorkloadSpread): Promise<WorkloadSpread | 'conflict'>;
}

/** The workload kinds the webhook reads (§10.4; no custom whitelist). */
const WORKLOADS: Record<string, Resource> = {
  'apps/Deployment': resources.deployments,
  'apps/ReplicaSet': resources.replicaSets,
  'apps/StatefulSet': resources.statefulSets,
  'batch/Job': resources.jobs,
  'apps.kruise.io/CloneSet': resources.cloneSets,
  'apps.kruise.io/StatefulSet': resources.advancedStatefulSets,
};

export const workloadResource = (group: string, kind: string): Resource | undefined => (Object.hasOwn(WORKLOADS, `${group}/${kind}`) ? WORKLOADS[`${group}/${kind}`] : undefined);

export function workloadSpreadRest(rest: KubeRest): WorkloadSpreadApi {
  return {
    fetchWorkload: async (group, kind, namespace, name) => {
      const r = workloadResource(group, kind);
      if (!r) return undefined;
      try { return await rest.find<Workload & KubernetesObject>(r, { namespace, name }); } catch (err) { throw new Error(`get ${kind} ${namespace}/${name}`, { cause: err }); }
    },
    fetchWorkloadSpread: async (namespace, name) => {
      try { return await rest.find<WorkloadSpread & KubernetesObject>(resources.workloadSpreads, { namespace, name }); } catch (err) { throw new Error(`get WorkloadSpread ${namespace}/${name}`, { cause: err }); }
    },
    updateWorkloadSpreadStatus: async (ws) => {
      try {
        return await rest.replace<WorkloadSpread & KubernetesObject>(resources.workloadSpreads, { ...ws, apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' } as WorkloadSpread & KubernetesObject, { subresource: 'status' });
      } catch (err) {
        if (isConflict(err)) return 'conflict';
        throw new Error(`update WorkloadSpread ${ws.metadata?.namespace}/${ws.metadata?.name} status`, { cause: err });
      }
    },
  };
}
