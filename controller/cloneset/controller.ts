// cloneset-controller (spec/cloneset.md §3): wires the watches (§3.1) — CloneSets, and pods and PVCs mapped to
// their controlling CloneSet with the scale expectations observed — and builds the reconcile (reconcile.ts).
import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import type { Pod } from '../../shared/api/meta.js';
import type { CloneSetRevision } from '../../shared/domain/cloneset/revision.js';
import type { Claim } from '../../shared/domain/cloneset/volume-claims.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import type { Controller } from '../types.js';
import { pdbGateFor } from '../disruption/pdb-gate-setup.js';
import { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';
import { OwnerIndex } from './owner-index.js';
import { pubUpdateGate } from './pub-gate.js';
import { cloneSetReconciler } from './reconcile.js';

/** The CloneSet controlling `obj` (ownerReference kind CloneSet in apps.kruise.io), as `ns/name`. */
function ownerKey(obj: KubernetesObject): string | undefined {
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller);
  if (!ref || ref.kind !== 'CloneSet' || !ref.apiVersion.startsWith('apps.kruise.io/')) return undefined;
  return `${obj.metadata?.namespace ?? ''}/${ref.name}`;
}

export const cloneSetController: Controller = {
  name: 'cloneset-controller',
  workers: 3,
  setup(deps, queue) {
    const cloneSets = deps.informers.cache<CloneSet>(resources.cloneSets);
    const pods = deps.informers.cache<Pod>(resources.pods);
    const revisions = deps.informers.cache<CloneSetRevision>(resources.controllerRevisions);
    const now = () => deps.clock.now();
    const scaleExpectations = new ScaleExpectations(now);
    const rvExpectations = new ResourceVersionExpectations(now);

    const claims = deps.informers.cache<Claim & KubernetesObject>(resources.persistentVolumeClaims);
    const podIndex = new OwnerIndex();
    const claimIndex = new OwnerIndex();
    const seen = new Set<string>();
    const seenClaims = new Set<string>();

    /** CloneSet keys by UID: NodeImage tags name their owner by UID (pre-download). */
    const keyByUid = new Map<string, string>();
    cloneSets.onChange((cs) => {
      const key = objectKey(cs);
      const uid = cs.metadata?.uid ?? '';
      if (cloneSets.get(key)) keyByUid.set(uid, key); else keyByUid.delete(uid);
      queue.add(key);
    });

    pods.onChange((pod) => {
      const key = objectKey(pod);
      const live = pods.get(key);
      podIndex.update(key, live);
      const owner = ownerKey(pod);
      const name = pod.metadata?.name ?? '';
      if (!live) {
        seen.delete(key);
        rvExpectations.forget(pod.metadata?.uid);
        if (owner) { scaleExpectations.observe(owner, name); queue.add(owner); }
        return;
      }
      const liveOwner = ownerKey(live);
      if (!liveOwner) return;
      // A create, or a deletion starting, is what a scale expectation waits for.
      if (!seen.has(key) || live.metadata?.deletionTimestamp) scaleExpectations.observe(liveOwner, name);
      seen.add(key);
      queue.add(liveOwner);
    });

    // Image pre-download (upstream's gate): NodeImages and the pull-secret copies, the caches the ImagePullJob controller uses.
    const preDownload = deps.config.featureGates.PreDownloadImageForInPlaceUpdate ? {
      nodeImages: freshView(deps.informers.cache<NodeImage>(resources.nodeImages), now),
      secrets: { copies: () => copies!.list(), daemonNamespace: deps.config.daemonConfigNamespace },
    } : undefined;
    const copies = preDownload ? deps.informers.cache<V1Secret>(resources.secrets, { namespace: deps.config.daemonConfigNamespace }) : undefined;
    if (preDownload) {
      // A finished pull frees a slot of the parallelism: the CloneSets with tags there look again.
      deps.informers.cache<NodeImage>(resources.nodeImages).onChange((ni) => {
        const uids = new Set<string>();
        for (const image of Object.values(ni.spec?.images ?? {})) {
          for (const t of image.tags ?? []) for (const o of t.ownerReferences ?? []) if (o.kind === 'CloneSet' && o.uid) uids.add(o.uid);
        }
        for (const uid of uids) { const key = keyByUid.get(uid); if (key) queue.add(key); }
      });
    }

    // PVCs: a create, a deletion starting or a delete is what a scale expectation on the claim waits for (§3.1).
    claims.onChange((claim) => {
      const key = objectKey(claim);
      const live = claims.get(key);
      claimIndex.update(key, live);
      const owner = ownerKey(live ?? claim);
      if (!live) seenClaims.delete(key);
      if (!owner) return;
      if (!live || !seenClaims.has(key) || live.metadata?.deletionTimestamp) scaleExpectations.observe(owner, claim.metadata?.name ?? '');
      if (live) seenClaims.add(key);
      queue.add(owner);
    });

    return cloneSetReconciler({
      rest: deps.rest, clock: deps.clock, log: deps.log, events: deps.events('cloneset-controller'),
      scaleExpectations, rvExpectations, random: Math.random, ...(preDownload && { preDownload }), pdb: pdbGateFor(deps, pods),
      ...(deps.config.featureGates.PodUnavailableBudgetUpdateGate && { pubUpdateGate: pubUpdateGate(deps, deps.config.featureGates.InPlacePodVerticalScaling) }),
      cloneSets, revisions,
      podsOwnedBy: (uid) => podIndex.keys(uid).map((k) => pods.get(k)).filter((p): p is Pod => !!p),
      claimsOwnedBy: (uid) => claimIndex.keys(uid).map((k) => claims.get(k)).filter((c): c is Claim & KubernetesObject => !!c),
    });
  },
};
