// What a SidecarSet reconcile works with (ReconcileDeps), its timing constants and the small helpers its steps
// share (reconcile.ts runs the steps; reconcile-pods.ts, reconcile-upgrade.ts and prepull-step.ts are the steps).
import type { Logger } from 'pino';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { Clock } from '../../shared/clock.js';
import type { EventRecorder } from '../../shared/kube/event-recorder.js';
import type { FreshView } from '../../shared/kube/fresh-view.js';
import type { Cache } from '../../shared/kube/informer.js';
import { apiVersionOf, resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { PdbGate } from '../disruption/pdb-gate.js';
import type { SecretIO } from '../prepull/secrets.js';
import type { UpdateExpectations } from './expectations.js';
import type { NamespaceLabels } from './matched-pods.js';
import type { PodIndex } from './pod-index.js';
import type { PrePullWaits } from './prepull-waits.js';
import type { ResizeRefusals } from './resize-refusals.js';
import type { Revision } from './revision-history.js';

export interface ReconcileDeps {
  rest: KubeRest;
  clock: Clock;
  log: Logger;
  events: EventRecorder;
  /** kruise-ts's namespace, where ControllerRevisions live. */
  namespace: string;
  sidecarSets: Cache<SidecarSet>;
  pods: Cache<Pod>;
  revisions: Cache<Revision>;
  namespaceLabels: NamespaceLabels;
  index: PodIndex;
  expectations: UpdateExpectations;
  refusals: ResizeRefusals;
  /** NodeImages, for pre-pull (prepull.ts); without them pre-pull is off. */
  nodeImages?: FreshView<NodeImage>;
  prePullWaits: PrePullWaits;
  /** Pull-secret copies for the daemon (controller/prepull/secrets.ts); without them pre-pull goes anonymously. */
  pullSecrets?: Omit<SecretIO, 'rest'>;
  /** PodDisruptionBudgets respected by in-place updates (controller/disruption/pdb-gate.ts); absent: not consulted. */
  pdb?: PdbGate;
}

/** How often a batch held back for its pre-pull looks at its nodes again. */
export const PREPULL_POLL_MS = 2_000;

/** How long to wait for the cache to show pods this process just updated (upstream: 1 s). */
export const EXPECTATIONS_RETRY_MS = 1_000;

/**
 * Pod writes of one round in flight at once. Upstream writes them one after another; a batch of 1,000 pods (10% of
 * 10,000) then takes minutes. Which pods are written does not change, only how long the batch takes.
 */
export const POD_WRITE_CONCURRENCY = 16;

/** Runs `f` over `items` with at most `n` in flight; the first failure is rethrown once the rest settled. */
export async function forEachLimit<T>(items: readonly T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!;
      try { await f(item); } catch (err) { failure ??= { err }; }
    }
  }));
  if (failure) throw failure.err;
}

export const podKey = (pod: Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
export const at = (pod: Pod) => ({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' });
export const asSidecarSet = (set: SidecarSet) => ({ apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', metadata: set.metadata });
export const asPod = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata });

/** The current time as a Date, from the deps' clock. */
export const nowOf = (deps: Pick<ReconcileDeps, 'clock'>) => () => new Date(deps.clock.now());
