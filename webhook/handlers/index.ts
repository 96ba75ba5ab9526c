// The explicit handler table (style §4: no import-time registries). main.ts calls makeRoutes with live caches; tests
// and the benchmark call it with static ones. Each entry pairs OpenKruise's path with a pure function from shared/domain.
import type { V1ControllerRevision } from '@kubernetes/client-node';
import type { ControllerRevisionLike } from '../../shared/api/controller-revision.js';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { FeatureGate } from '../../shared/config.js';
import type { InjectionContext } from '../../shared/domain/inject/index.js';
import { mutatePodOnCreate } from '../../shared/domain/pod-mutation.js';
import { defaultCloneSet } from '../../shared/domain/cloneset/defaults.js';
import { defaultSidecarSet } from '../../shared/domain/sidecarset-defaults.js';
import { validateCloneSet } from '../../shared/domain/validation/cloneset.js';
import { mutateContainerRecreateRequest } from '../../shared/domain/validation/container-recreate-request.js';
import { defaultImageListPullJob, validateImageListPullJob } from '../../shared/domain/validation/image-list-pull-job.js';
import { defaultImagePullJob, imagePullJobDenialCode, validateImagePullJob } from '../../shared/domain/validation/image-pull-job.js';
import { defaultNodeImage, validateNodeImage } from '../../shared/domain/validation/node-image.js';
import { validatePodProbeMarker } from '../../shared/domain/validation/pod-probe-marker.js';
import { validateResourceDistribution } from '../../shared/domain/validation/resource-distribution.js';
import type { WorkloadRef } from '../../shared/domain/pub/related.js';
import type { SpendRequest, SpendResult } from '../../shared/domain/pub/spend.js';
import { validatePub } from '../../shared/domain/pub/validate.js';
import { validateSidecarSet, type SidecarSetValidationContext } from '../../shared/domain/validation/sidecarset.js';
import { validateWorkloadSpread } from '../../shared/domain/validation/workload-spread.js';
import type { AdmissionRequest } from '../admission/review.js';
import type { WebhookRoute } from '../admission/route.js';
import type { AdmissionCaches } from '../caches.js';
import { mutateCloneSetRoute } from './mutate-cloneset.js';
import { mutateContainerRecreateRequestRoute } from './mutate-container-recreate-request.js';
import { mutateImageListPullJobRoute } from './mutate-image-list-pull-job.js';
import { mutateImagePullJobRoute } from './mutate-image-pull-job.js';
import { mutateNodeImageRoute } from './mutate-node-image.js';
import { mutatePodRoute } from './mutate-pod.js';
import { mutateSidecarSetRoute } from './mutate-sidecarset.js';
import { withV18Paths } from './paths.js';
import { withRelatedPub } from './related-pub.js';
import { validateCloneSetRoute } from './validate-cloneset.js';
import { deletionProtectionRoutes, type DeletionCount } from './validate-deletion-protection.js';
import { validateImageListPullJobRoute } from './validate-image-list-pull-job.js';
import { validateImagePullJobRoute } from './validate-image-pull-job.js';
import { validateNodeImageRoute } from './validate-node-image.js';
import { validatePodRoute } from './validate-pod.js';
import { validatePubRoute } from './validate-pub.js';
import { validatePodProbeMarkerRoute } from './validate-pod-probe-marker.js';
import { validateResourceDistributionRoute } from './validate-resource-distribution.js';
import { validateSidecarSetRoute } from './validate-sidecarset.js';
import { validateWorkloadSpreadRoute } from './validate-workload-spread.js';
import { workloadSpreadPodSteps } from './workload-spread-pod.js';
import type { CanWrite } from './write-access.js';

export interface RouteDeps {
  caches: AdmissionCaches;
  gates: Readonly<Record<FeatureGate, boolean>>;
  now: () => Date;
  random: () => number;
  /** Server-side dry-run create for ResourceDistribution; offline callers (CLI, tests) leave it out. */
  dryRunCreate?: (resource: Record<string, unknown>) => Promise<string | undefined>;
  /** SubjectAccessReview for a ResourceDistribution's author (write-access.ts); offline callers leave it out. */
  canWrite?: CanWrite;
  /** Spends one unit of a PodUnavailableBudget through the apiserver (main thread; shared/domain/pub/spend.ts). */
  spendPub?: (r: SpendRequest) => Promise<SpendResult>;
  /** A ReplicaSet's controller (its Deployment), for the related-pub lookup of a targetRef PUB. */
  replicaSetOwner?: (namespace: string, name: string) => Promise<WorkloadRef | undefined>;
  /** The counts behind a Cascading deletion protection (webhook/deletion-counts.ts); offline callers leave it out. */
  countForDeletion?: DeletionCount;
}

/** `view` of every SidecarSet in `list`, made once per list (the caches hand out the same array until one changes). */
const viewed = new WeakMap<readonly SidecarSet[], { view: (s: SidecarSet) => SidecarSet; out: readonly SidecarSet[] }>();
function viewOf(list: readonly SidecarSet[], view: (s: SidecarSet) => SidecarSet): readonly SidecarSet[] {
  const hit = viewed.get(list);
  if (hit?.view === view) return hit.out;
  const out = Object.freeze(list.map(view));
  viewed.set(list, { view, out });
  return out;
}

/**
 * The SidecarSet validation context, gathered from the caches before the pure validator runs; `view` is how each
 * cached SidecarSet is seen (v1.9 validates them as v1beta1, validate-sidecarset.ts).
 */
export function sidecarSetValidationContext(deps: RouteDeps, view?: (s: SidecarSet) => SidecarSet): SidecarSetValidationContext {
  const c = deps.caches;
  return {
    sidecarSets: view ? viewOf(c.sidecarSets(), view) : c.sidecarSets(),
    namespaceLabels: c.namespaceLabels,
    revisionExists: (ref) =>
      ref.revisionName
        ? c.revisionByName(ref.revisionName) !== undefined
        : ref.customVersion !== undefined && c.revisionByCustomVersion(ref.sidecarSetName, ref.customVersion) !== undefined,
    patchMetadataWhitelist: c.patchMetadataWhitelist(),
    patchMetadataDefaultsAllowed: deps.gates.SidecarSetPatchPodMetadataDefaultsAllowed,
  };
}

// client-node types metadata.name as optional; a stored ControllerRevision always has one.
const revisionLike = (r: V1ControllerRevision): ControllerRevisionLike => ({
  metadata: { name: r.metadata?.name ?? '', annotations: r.metadata?.annotations, labels: r.metadata?.labels },
  revision: r.revision,
  data: r.data,
});

/** The injection context for one pod review, gathered from the caches (spec §2.3; Istio InjectionParameters). */
export function podInjectionContext(deps: RouteDeps, req: AdmissionRequest): InjectionContext {
  const c = deps.caches;
  return {
    operation: req.operation === 'UPDATE' ? 'UPDATE' : 'CREATE',
    ...(req.namespace ? { requestNamespace: req.namespace } : {}),
    sidecarSets: c.sidecarSets(),
    namespaceLabels: c.namespaceLabels,
    revisions: {
      byName: (name) => {
        const r = c.revisionByName(name);
        return r ? revisionLike(r) : undefined;
      },
      byCustomVersion: (set, version) => c.revisionsByCustomVersion(set, version).map(revisionLike),
    },
    now: deps.now(),
    random: deps.random,
    sortSidecarContainersByName: deps.gates.EnableSortSidecarContainerByName,
  };
}

/** How long a review that reads SidecarSets waits for their cache's first list (under the pod webhook's 10 s). */
export const SIDECARSET_SYNC_WAIT_MS = 5_000;

/** The route, answering only once the SidecarSet cache has listed (AdmissionCaches.sidecarSetsSynced). */
const afterSidecarSetsSync = (deps: RouteDeps, route: WebhookRoute): WebhookRoute => ({
  ...route,
  handler: async (req) => {
    await deps.caches.sidecarSetsSynced(SIDECARSET_SYNC_WAIT_MS);
    return route.handler(req);
  },
});

/** The v1.9 routes, each also at its v1.8 path (paths.ts). */
export function makeRoutes(deps: RouteDeps): WebhookRoute[] {
  const gates = deps.gates;
  const pubGate = gates.PodUnavailableBudgetDeleteGate || gates.PodUnavailableBudgetUpdateGate;
  const relatedPub = { pubs: deps.caches.pubs, ...(deps.replicaSetOwner ? { replicaSetOwner: deps.replicaSetOwner } : {}) };
  const deletion = { gates, ...(deps.countForDeletion ? { count: deps.countForDeletion } : {}) };
  const workloadSpread = workloadSpreadPodSteps({ enabled: gates.WorkloadSpread, caches: deps.caches, now: deps.now, random: deps.random });
  return withV18Paths([
    afterSidecarSetsSync(deps, mutatePodRoute<InjectionContext>({ enabled: gates.PodWebhook, mutate: mutatePodOnCreate, context: (req) => podInjectionContext(deps, req),
      ...(gates.WorkloadSpread ? { beforeInjection: workloadSpread.onCreate } : {}),
      ...(pubGate ? { after: (pod: Pod, req: AdmissionRequest) => withRelatedPub(pod, req.namespace ?? '', relatedPub) } : {}) })),
    validatePodRoute({
      gates: { podWebhook: gates.PodWebhook, deleteGate: gates.PodUnavailableBudgetDeleteGate, updateGate: gates.PodUnavailableBudgetUpdateGate, inPlacePodVerticalScaling: gates.InPlacePodVerticalScaling },
      pub: deps.caches.pub, fetchPod: deps.caches.fetchPod, ...(deps.spendPub ? { spendPub: deps.spendPub } : {}),
      ...(gates.WorkloadSpread ? { workloadSpread: workloadSpread.onDelete } : {}),
    }),
    validatePubRoute({ enabled: pubGate, validate: validatePub, pubs: deps.caches.pubs }),
    validateWorkloadSpreadRoute({ gates, caches: deps.caches, validate: validateWorkloadSpread }),
    mutateSidecarSetRoute({ defaults: (s) => defaultSidecarSet(s, { imageVolume: gates.ImageVolume }) }),
    afterSidecarSetsSync(deps, validateSidecarSetRoute<SidecarSetValidationContext>({ validate: (o: SidecarSet, old, ctx) => validateSidecarSet(o, old, ctx), context: (_req, view) => sidecarSetValidationContext(deps, view) })),
    mutateCloneSetRoute({ defaults: (cs, old) => defaultCloneSet(cs, old, { imageVolume: gates.ImageVolume }) }),
    validateCloneSetRoute({ validate: validateCloneSet, fetchPod: deps.caches.fetchPod, deletion }),
    mutateContainerRecreateRequestRoute({ gates, mutate: mutateContainerRecreateRequest, fetchPod: deps.caches.fetchPod, fetchNode: deps.caches.fetchNode }),
    mutateImagePullJobRoute({ gates, defaults: defaultImagePullJob }),
    validateImagePullJobRoute({ gates, validate: validateImagePullJob, denialCode: imagePullJobDenialCode }),
    mutateImageListPullJobRoute({ gates, defaults: defaultImageListPullJob }),
    validateImageListPullJobRoute({ gates, validate: validateImageListPullJob }),
    mutateNodeImageRoute({ gates, defaults: defaultNodeImage, now: deps.now }),
    validateNodeImageRoute({ gates, validate: (o) => validateNodeImage(o) }),
    validateResourceDistributionRoute({ gates, validate: validateResourceDistribution, namespaceLabels: deps.caches.namespaceLabels,
      ...(deps.dryRunCreate ? { dryRunCreate: deps.dryRunCreate } : {}), ...(deps.canWrite ? { canWrite: deps.canWrite } : {}) }),
    validatePodProbeMarkerRoute({ gates, validate: validatePodProbeMarker }),
    ...deletionProtectionRoutes(deletion),
  ]);
}
