// The status sync (spec §6.5): plan the NodePodProbe's status from the informer copy and the cached results, emit
// the events, and write it with a status PUT guarded by resourceVersion.
//
// The informer lags our own writes, so the base of the next plan is the object our last write returned when the
// cache still holds its predecessor (otherwise every sync right after a write would conflict with ourselves). A
// conflict with another writer (the manager updating the spec) is answered with one fresh GET and one more PUT;
// a second failure is thrown and retried with the queue's backoff on this queue (§11.5: upstream retries through
// the spec queue).
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import type { Clock } from '../../shared/clock.js';
import type { ProbeResults } from './results.js';
import { planStatus, type ProbeEvent } from './status.js';

export interface NodePodProbeApi {
  /** Fresh from the apiserver; undefined when it does not exist. */
  get(name: string): Promise<NodePodProbe | undefined>;
  /** PUT …/status; rejects with `code` 409 on a stale resourceVersion, 404 when the object is gone. */
  replaceStatus(npp: NodePodProbe): Promise<NodePodProbe>;
}

export interface StatusSyncDeps {
  nodeName: string;
  cached: () => NodePodProbe | undefined;
  api: NodePodProbeApi;
  results: ProbeResults;
  emit: (e: ProbeEvent) => void;
  clock: Pick<Clock, 'now'>;
}

const codeOf = (err: unknown): number | undefined => (err as { code?: number })?.code;
/** Our own writes remembered; the informer is rarely more than one or two behind. */
const CHAIN_LIMIT = 16;

export interface StatusSync {
  (): Promise<void>;
  /** Status writes made (for tests and logs). */
  writes(): number;
}

export function statusSync(deps: StatusSyncDeps): StatusSync {
  /** resourceVersion → the object our write of it produced. */
  const successor = new Map<string, NodePodProbe>();
  let writes = 0;

  const put = async (base: NodePodProbe, status: NodePodProbe['status']): Promise<NodePodProbe> => {
    const stored = await deps.api.replaceStatus({ apiVersion: base.apiVersion ?? 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: base.metadata?.name, resourceVersion: base.metadata?.resourceVersion }, status });
    writes++;
    const rv = base.metadata?.resourceVersion;
    if (rv) {
      successor.set(rv, stored);
      while (successor.size > CHAIN_LIMIT) successor.delete(successor.keys().next().value as string);
    }
    return stored;
  };

  const sync = async () => {
    let base = deps.cached();
    if (!base || base.metadata?.deletionTimestamp) return;
    for (let i = 0; i < CHAIN_LIMIT && base.metadata?.resourceVersion && successor.has(base.metadata.resourceVersion); i++) {
      base = successor.get(base.metadata.resourceVersion)!;
    }
    const plan = planStatus(base, deps.results.list(), deps.results.takeFresh(), deps.clock.now());
    for (const e of plan.events) deps.emit(e);
    if (!plan.changed) return;
    try {
      await put(base, plan.status);
      return;
    } catch (err) {
      if (codeOf(err) === 404) return;
      if (codeOf(err) !== 409) throw new Error(`update status of NodePodProbe ${deps.nodeName}`, { cause: err });
    }
    const latest = await deps.api.get(deps.nodeName);
    if (!latest) return;
    const again = planStatus(latest, deps.results.list(), new Set(), deps.clock.now());
    if (!again.changed) return;
    try {
      await put(latest, again.status);
    } catch (err) {
      if (codeOf(err) === 404) return;
      throw new Error(`update status of NodePodProbe ${deps.nodeName}`, { cause: err });
    }
  };
  return Object.assign(sync, { writes: () => writes });
}
