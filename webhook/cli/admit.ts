// Offline admission: runs documents through the SAME route handlers the HTTPS webhook serves (handlers/index.ts),
// with caches filled from the input instead of informers. Only the transport differs.
import { randomUUID } from 'node:crypto';
import type { KubernetesObject, V1ConfigMap, V1ControllerRevision, V1Node } from '@kubernetes/client-node';
import fjp from 'fast-json-patch';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { AdmissionRequest } from '../admission/review.js';
import type { AdmissionResult } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { resultFromError } from '../admission/route.js';
import { admissionCaches, staticCache } from '../caches.js';
import type { Cache } from '../../shared/kube/informer.js';
import { makeRoutes } from '../handlers/index.js';
import type { FeatureGate } from '../../shared/config.js';
import { clusterNamespaces, sidecarSetAsCached } from './cluster-view.js';
import type { KubeDocument } from './documents.js';

/** Which webhooks a CREATE of each kind passes through, mutating first, as the apiserver orders them. */
const routesByKind: Record<string, { group: string; resource: string; paths: string[] }> = {
  Pod: { group: '', resource: 'pods', paths: ['/mutate-pod'] },
  SidecarSet: { group: 'apps.kruise.io', resource: 'sidecarsets', paths: ['/mutate-apps-kruise-io-sidecarset', '/validate-apps-kruise-io-sidecarset'] },
  ContainerRecreateRequest: { group: 'apps.kruise.io', resource: 'containerrecreaterequests', paths: ['/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest'] },
  ImagePullJob: { group: 'apps.kruise.io', resource: 'imagepulljobs', paths: ['/mutate-apps-kruise-io-imagepulljob', '/validate-apps-kruise-io-imagepulljob'] },
  ImageListPullJob: { group: 'apps.kruise.io', resource: 'imagelistpulljobs', paths: ['/mutate-apps-kruise-io-imagelistpulljob', '/validate-apps-kruise-io-imagelistpulljob'] },
  NodeImage: { group: 'apps.kruise.io', resource: 'nodeimages', paths: ['/mutate-apps-kruise-io-nodeimage', '/validate-apps-kruise-io-nodeimage'] },
  ResourceDistribution: { group: 'apps.kruise.io', resource: 'resourcedistributions', paths: ['/validate-apps-kruise-io-v1alpha1-resourcedistribution'] },
  CloneSet: { group: 'apps.kruise.io', resource: 'clonesets', paths: ['/mutate-apps-kruise-io-v1alpha1-cloneset', '/validate-apps-kruise-io-v1alpha1-cloneset'] },
};

/** Namespaced kinds whose handlers read the request's namespace (pod lookups), defaulted as kubectl does. */
const inDefaultNamespace = new Set(['Pod', 'ContainerRecreateRequest', 'CloneSet']);

export type Verdict = { allowed: true; object: KubeDocument; warning?: string } | { allowed: false; reason: string };

export interface OfflineAdmission {
  /** Admits `doc` as a CREATE; an allowed SidecarSet joins the cache so later documents see it. */
  create(doc: KubeDocument): Promise<Verdict>;
  /**
   * Runs only the mutating webhooks (defaulting) and keeps the object even if validation would refuse it, reporting
   * that refusal as `warning`; for `inject`, whose SidecarSets are inputs, not requests (upstream's injection tests
   * inject SidecarSets that validation would call conflicting).
   */
  createUnvalidated(doc: KubeDocument): Promise<Verdict>;
  admits(kind: string | undefined): boolean;
}

const allGates: Record<FeatureGate, boolean> = {
  PodWebhook: true,
  KruiseDaemon: true,
  ImagePullJobGate: true,
  ResourceDistributionGate: true,
  SidecarSetPatchPodMetadataDefaultsAllowed: false,
  EnableSortSidecarContainerByName: false,
  PreDownloadImageForInPlaceUpdate: false,
  // Kubernetes' gate as the kruise manager has it by default (alpha in 1.32, off).
  ImageVolume: false,
  WorkloadSpread: true,
};

/** A cache that only grows, telling listeners (the gatherers memoise their sorted view) about each addition. */
function growingCache<T extends KubernetesObject>(): { cache: Cache<T>; add(item: T): void } {
  const items: T[] = [];
  const listeners: ((obj: T) => void)[] = [];
  const base = staticCache(items);
  return {
    cache: { ...base, onChange: (fn: (obj: T) => void) => void listeners.push(fn) } as Cache<T>,
    add(item) {
      items.push(item);
      for (const fn of listeners) fn(item);
    },
  };
}

/**
 * Namespaces (as cluster-view.ts completes them), Pods and Nodes found anywhere in the input are what the webhook's
 * lookups see; SidecarSets accumulate as they are admitted, like a cluster receiving the documents in order.
 */
export function offlineAdmission(input: KubeDocument[], opts: { now?: () => Date; random?: () => number } = {}): OfflineAdmission {
  const sidecarSets = growingCache<SidecarSet & KubernetesObject>();
  const namespaces = clusterNamespaces(input);
  const pods = input.filter((d) => d.kind === 'Pod');
  const nodes = input.filter((d) => d.kind === 'Node') as V1Node[];
  // The kruise namespace's ControllerRevisions and `kruise-configuration` ConfigMap, whatever namespace the input gives.
  const revisions = input.filter((d) => d.kind === 'ControllerRevision') as unknown as V1ControllerRevision[];
  const configMaps = input.filter((d) => d.kind === 'ConfigMap') as V1ConfigMap[];
  const caches = admissionCaches(
    { sidecarSets: sidecarSets.cache, namespaces: staticCache(namespaces), revisions: staticCache(revisions), configMaps: staticCache(configMaps) },
    {
      fetchPod: async (ns, name) => pods.find((p) => p.metadata?.name === name && (p.metadata?.namespace ?? 'default') === ns) as never,
      fetchNode: async (name) => nodes.find((n) => n.metadata?.name === name),
    },
  );
  const routes = new Map<string, WebhookRoute>(
    makeRoutes({ caches, gates: allGates, now: opts.now ?? (() => new Date()), random: opts.random ?? Math.random }).map((r) => [r.path, r]),
  );

  async function run(route: WebhookRoute, req: AdmissionRequest): Promise<AdmissionResult> {
    try {
      return await route.handler(req);
    } catch (err) {
      return resultFromError(err);
    }
  }

  async function admit(doc: KubeDocument, validating: 'enforce' | 'warn'): Promise<Verdict> {
    const target = routesByKind[doc.kind ?? ''];
    if (!target) return { allowed: true, object: doc };
    let object: KubeDocument = structuredClone(doc);
    let warning: string | undefined;
    const namespace = inDefaultNamespace.has(doc.kind ?? '') ? (doc.metadata?.namespace ?? 'default') : doc.metadata?.namespace;
    for (const path of target.paths) {
      const route = routes.get(path);
      if (!route) continue; // not wired in this build: the webhook would not serve it either
      const [group, version] = (doc.apiVersion ?? 'v1').includes('/') ? doc.apiVersion!.split('/') : ['', doc.apiVersion ?? 'v1'];
      const req: AdmissionRequest = {
        uid: randomUUID(),
        kind: { group: group!, version: version!, kind: doc.kind! },
        resource: { group: target.group, version: version!, resource: target.resource },
        ...(namespace ? { namespace } : {}),
        ...(object.metadata?.name ? { name: object.metadata.name } : {}),
        operation: 'CREATE',
        userInfo: { username: 'kruise-ts-cli' },
        object,
      };
      const result = await run(route, req);
      if (!result.allowed) {
        const reason = result.status?.message ?? `refused with code ${result.status?.code}`;
        if (validating === 'warn' && path.startsWith('/validate-')) {
          warning ??= reason;
          continue;
        }
        return { allowed: false, reason };
      }
      if (result.patch) {
        const ops = JSON.parse(Buffer.from(result.patch, 'base64').toString('utf8'));
        object = fjp.applyPatch(object, ops, false, false).newDocument as KubeDocument;
      }
    }
    // Later documents see it as the webhook's cache would: stored as v1beta1, read back through the informer's form.
    if (doc.kind === 'SidecarSet') {
      try {
        sidecarSets.add(sidecarSetAsCached(object as SidecarSet & KubernetesObject));
      } catch (err) {
        return { allowed: false, reason: `conversion to the storage version failed: ${(err as Error).message}` };
      }
    }
    return warning === undefined ? { allowed: true, object } : { allowed: true, object, warning };
  }

  return {
    admits: (kind) => kind !== undefined && kind in routesByKind,
    create: (doc) => admit(doc, 'enforce'),
    createUnvalidated: (doc) => admit(doc, 'warn'),
  };
}
