// sidecarset-controller (spec/daemon-and-controllers.md §6): keeps each SidecarSet's status and revision history
// current and rolls its sidecar images out to the injected pods in place. This file wires the watches (§6.9); the
// reconcile itself is reconcile.ts.
import type { V1Namespace, V1Secret } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { SidecarSetNameLabel, type SidecarSet } from '../../shared/api/sidecarset.js';
import { objectKey } from '../../shared/kube/keys.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import { resources } from '../../shared/kube/resources.js';
import type { Controller } from '../types.js';
import { pdbGateFor } from '../disruption/pdb-gate-setup.js';
import { UpdateExpectations } from './expectations.js';
import { PodIndex } from './pod-index.js';
import { podChangeEnqueues, relevantSets, summarize, type PodSummary } from './pod-events.js';
import { InPlaceResizeAnnotation } from './pod-change.js';
import { PrePullAnnotation } from './prepull.js';
import { podView } from './pod-view.js';
import { sidecarSetReconciler } from './reconcile.js';
import { PrePullWaits } from './prepull-waits.js';
import { ResizeRefusals } from './resize-refusals.js';
import type { Revision } from './revision-history.js';

export const sidecarSetController: Controller = {
  name: 'sidecarset-controller',
  workers: 3,
  setup(deps, queue) {
    const sidecarSets = deps.informers.cache<SidecarSet>(resources.sidecarSets);
    const pods = deps.informers.cache<Pod>(resources.pods);
    const namespaces = deps.informers.cache<V1Namespace>(resources.namespaces);
    const revisions = deps.informers.cache<Revision>(resources.controllerRevisions, { namespace: deps.namespace, labelSelector: SidecarSetNameLabel });
    const index = new PodIndex();
    const expectations = new UpdateExpectations();
    const refusals = new ResizeRefusals();
    const prePullWaits = new PrePullWaits();
    // Pre-pull (opt-in per SidecarSet) reads each node's NodeImage; the same cache as the NodeImage controllers'.
    const nodeImages = freshView(deps.informers.cache<NodeImage>(resources.nodeImages), () => deps.clock.now());
    // Its pull secrets are copied for the daemon as an ImagePullJob's are; the same cache of the copies.
    const daemonNamespace = deps.config.daemonConfigNamespace;
    const secretCopies = deps.informers.cache<V1Secret>(resources.secrets, { namespace: daemonNamespace });

    // SidecarSets: created, deleted, or a new generation (status writes and metadata-only edits do not count, but the
    // in-place resize and pre-pull switches do).
    const generations = new Map<string, string>();
    sidecarSets.onChange((s) => {
      const name = s.metadata?.name ?? '';
      const live = sidecarSets.get(name);
      if (!live) {
        generations.delete(name);
        expectations.deleteSet(name);
        refusals.deleteSet(name);
        prePullWaits.deleteSet(name);
        queue.add(name);
        return;
      }
      const a = live.metadata?.annotations ?? {};
      const version = `${live.metadata?.generation}/${a[InPlaceResizeAnnotation] ?? ''}/${a[PrePullAnnotation] ?? ''}`;
      if (generations.get(name) === version) return;
      generations.set(name, version);
      queue.add(name);
    });

    // Pods: mapped to the SidecarSets in their injected list; see pod-events.ts for which changes matter.
    const summaries = new Map<string, PodSummary>();
    pods.onChange((pod) => {
      const key = objectKey(pod);
      const live = pods.get(key);
      if (!live) {
        summaries.delete(key);
        // Upstream only drops expectations here; we also recount, or a force-deleted pod stays in matchedPods.
        for (const set of index.delete(key)) {
          expectations.forget(set, key);
          refusals.forgetPod(set, key);
          queue.add(set);
        }
        return;
      }
      const injected = [...podView(live).injected].sort();
      index.set(key, injected);
      const sets = relevantSets(live, injected, (n) => sidecarSets.get(n));
      if (sets.length === 0) {
        summaries.delete(key);
        return;
      }
      const after = summarize(live, sets);
      const before = summaries.get(key);
      summaries.set(key, after);
      for (const e of podChangeEnqueues(before, after, sets)) {
        if (e.afterMs > 0) queue.addAfter(e.set, e.afterMs);
        else queue.add(e.set);
      }
    });

    // Namespaces (not watched upstream): a label change can move pods in or out of a namespaceSelector.
    namespaces.onChange(() => {
      for (const s of sidecarSets.list()) if (s.spec?.namespaceSelector) queue.add(s.metadata?.name ?? '');
    });

    return sidecarSetReconciler({
      rest: deps.rest, clock: deps.clock, log: deps.log, events: deps.events('sidecarset-controller'), namespace: deps.namespace,
      sidecarSets, pods, revisions, index, expectations, refusals, nodeImages, prePullWaits,
      pullSecrets: { copies: () => secretCopies.list(), daemonNamespace },
      pdb: pdbGateFor(deps, pods),
      namespaceLabels: (name) => {
        const ns = namespaces.get(name);
        return ns ? (ns.metadata?.labels ?? {}) : undefined;
      },
    });
  },
};
