// PodProbeMarker-controller (spec/node-probes-and-sidecar-lifecycle.md §4): puts each PodProbeMarker's probes into
// the NodePodProbe of every node running a pod it matches (`<ppm>#<probe>`, named ports resolved), takes them out
// again when the PPM is deleted (finalizer `kruise.io/node-pod-probe-cleanup`) or no longer matches a pod, and keeps
// `status.matchedPods`. The NodePodProbe controller creates the per-node objects and writes results onto pods.
// Pods on virtual-kubelet nodes are counted but not probed (the serverless path is not supported, docs/compatibility.md).
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { NodePodProbeCleanupFinalizer, type PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import { filterSliced, yieldToLoop } from '../../shared/reconcile/yield.js';
import type { Controller } from '../types.js';
import { writePodProbes } from '../nodepodprobe/npp-writes.js';
import { holdsMarker, holdsUnmatched, mergeNodePodProbe, removeMarkerProbes } from './node-probes.js';
import { matchPods } from './pods.js';
import { setCleanupFinalizer, writeStatus } from './ppm-writes.js';
import { podWatch } from './watch.js';

export const podProbeMarkerController: Controller = {
  name: 'podprobemarker-controller',
  // PodProbeMarkerGate is forced off with KruiseDaemon (shared/feature-gates.ts), as upstream.
  featureGate: 'PodProbeMarkerGate',
  workers: 3,
  setup({ informers, rest, clock, log: baseLog }, queue) {
    const ppms = informers.cache<PodProbeMarker>(resources.podProbeMarkers);
    const pods = informers.cache<Pod>(resources.pods);
    const nodes = informers.cache<V1Node>(resources.nodes);
    const npps = informers.cache<NodePodProbe>(resources.nodePodProbes);
    const ppmView = freshView(ppms, () => clock.now());
    const nppView = freshView(npps, () => clock.now());

    // Create and Update enqueue; Delete is ignored (the finalizer turns a delete into an update).
    ppms.onChange((ppm) => { if (ppms.get(objectKey(ppm))) queue.add(objectKey(ppm)); });
    pods.onChange(podWatch({
      pods, nodes,
      markersOf: (ns) => ppms.list().filter((p) => p.metadata?.namespace === ns),
      marker: (ns, name) => ppms.get(`${ns}/${name}`),
      enqueue: (key) => queue.add(key),
    }));
    // Beyond upstream: a node's NodePodProbe appearing (created after the PPM's reconcile skipped that node) re-runs
    // the PPMs, instead of waiting for their next event.
    const seen = new Set<string>();
    npps.onChange((npp) => {
      const name = npp.metadata?.name ?? '';
      if (!npps.get(name)) { seen.delete(name); return; }
      if (seen.has(name)) return;
      seen.add(name);
      for (const ppm of ppms.list()) queue.add(objectKey(ppm));
    });

    return async (key, { log }) => {
      const ppm = ppmView.get(key);
      if (!ppm) return;
      const namespace = ppm.metadata?.namespace ?? '';
      const name = ppm.metadata?.name ?? '';
      const inNamespace = await filterSliced(pods.list(), (p) => p.metadata?.namespace === namespace);
      const matched = matchPods(ppm, inNamespace, (n) => nodes.get(n));

      if (ppm.metadata?.deletionTimestamp) {
        if (!(ppm.metadata.finalizers ?? []).includes(NodePodProbeCleanupFinalizer)) return;
        // Every node holding its probes, not only those of the pods it matches now (a superset of upstream's).
        for (const npp of await filterSliced(nppView.list(), (n) => holdsMarker(n.spec, namespace, name))) {
          const wrote = await writePodProbes(rest, clock, npp.metadata!.name!, npp, (n) => removeMarkerProbes(n.spec, namespace, name));
          if (wrote) nppView.wrote(wrote);
        }
        const done = await setCleanupFinalizer(rest, clock, ppm, false);
        if (done) ppmView.wrote(done);
        log.info('removed the PodProbeMarker\'s probes from the NodePodProbes');
        return;
      }
      const withFinalizer = await setCleanupFinalizer(rest, clock, ppm, true);
      if (withFinalizer) ppmView.wrote(withFinalizer);

      const byNode = new Map<string, Pod[]>();
      for (const pod of matched.normal) {
        const node = pod.spec!.nodeName!;
        byNode.set(node, [...(byNode.get(node) ?? []), pod]);
      }
      const uids = new Set(matched.normal.map((p) => p.metadata?.uid ?? ''));
      for (const npp of await filterSliced(nppView.list(), (n) => !byNode.has(n.metadata?.name ?? '') && holdsUnmatched(n.spec, ppm, uids))) {
        byNode.set(npp.metadata!.name!, []);
      }
      for (const [node, group] of byNode) {
        const npp = nppView.get(node);
        if (!npp) {
          log.info({ node }, 'no NodePodProbe for the node yet; its creation will bring the PodProbeMarker back');
          continue;
        }
        const wrote = await writePodProbes(rest, clock, node, npp, (n) => {
          const merged = mergeNodePodProbe(n.spec, ppm, group, uids);
          for (const error of new Set(merged.errors)) baseLog.debug({ podProbeMarker: key, error }, 'probe skipped');
          return merged.podProbes;
        });
        if (wrote) nppView.wrote(wrote);
        await yieldToLoop();
      }
      const fresh = ppmView.get(key);
      if (!fresh) return;
      const status = await writeStatus(rest, clock, fresh, matched.normal.length + matched.serverless.length);
      if (status) ppmView.wrote(status);
    };
  },
};
