// cloneset-controller (spec/cloneset.md §3): wires the watches (§3.1) — CloneSets, and pods mapped to their
// controlling CloneSet with the scale expectations observed — and builds the reconcile (reconcile.ts).
import type { V1Secret } from '@kubernetes/client-node';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import type { Pod } from '../../shared/api/meta.js';
import type { CloneSetRevision } from '../../shared/domain/cloneset/revision.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import type { Controller } from '../types.js';
import { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';
import { cloneSetReconciler } from './reconcile.js';

/** The CloneSet controlling `pod` (ownerReference kind CloneSet in apps.kruise.io), as `ns/name`. */
function ownerKey(pod: Pod): string | undefined {
  const ref = pod.metadata?.ownerReferences?.find((r) => r.controller);
  if (!ref || ref.kind !== 'CloneSet' || !ref.apiVersion.startsWith('apps.kruise.io/')) return undefined;
  return `${pod.metadata?.namespace ?? ''}/${ref.name}`;
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

    // Pod keys by the UID of every owner they reference, so a reconcile reads its pods without scanning all pods.
    const byOwner = new Map<string, Set<string>>();
    const ownersOf = new Map<string, string[]>();
    const seen = new Set<string>();

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
      for (const uid of ownersOf.get(key) ?? []) byOwner.get(uid)?.delete(key);
      ownersOf.delete(key);
      const owner = ownerKey(pod);
      const name = pod.metadata?.name ?? '';
      if (!live) {
        seen.delete(key);
        rvExpectations.forget(pod.metadata?.uid);
        if (owner) { scaleExpectations.observe(owner, name); queue.add(owner); }
        return;
      }
      const uids = (live.metadata?.ownerReferences ?? []).map((r) => r.uid);
      for (const uid of uids) {
        let s = byOwner.get(uid);
        if (!s) byOwner.set(uid, (s = new Set()));
        s.add(key);
      }
      ownersOf.set(key, uids);
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

    return cloneSetReconciler({
      rest: deps.rest, clock: deps.clock, log: deps.log, events: deps.events('cloneset-controller'),
      scaleExpectations, rvExpectations, random: Math.random, ...(preDownload && { preDownload }),
      cloneSets, revisions,
      podsOwnedBy: (uid) => [...(byOwner.get(uid) ?? [])].map((k) => pods.get(k)).filter((p): p is Pod => !!p),
    });
  },
};
