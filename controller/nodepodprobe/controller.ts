// NodePodProbe-controller (spec/node-probes-and-sidecar-lifecycle.md §5): one NodePodProbe per Ready node (name = node
// name), deleted with the node (no ownerReference, as upstream); entries of pods that are gone, finished or replaced
// are pruned; and the daemon's results in its status are written onto the pods (conditions, labels, annotations).
import { isDeepStrictEqual } from 'node:util';
import type { V1Node } from '@kubernetes/client-node';
import { KRUISE_API_VERSION, type Pod } from '../../shared/api/meta.js';
import type { NodePodProbe, NodePodProbeStatus } from '../../shared/api/node-pod-probe.js';
import type { PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { freshView } from '../../shared/kube/fresh-view.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, isNotFound } from '../../shared/kube/rest.js';
import { yieldToLoop } from '../../shared/reconcile/yield.js';
import type { Controller } from '../types.js';
import { isPodActive, isVirtualKubelet } from '../podprobemarker/pods.js';
import { NPP_FIELD_MANAGER, writePodProbes } from './npp-writes.js';
import { podResultsPatch, probeResults } from './pod-results.js';

const isReady = (node: V1Node): boolean => node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const lists = (npp: NodePodProbe | undefined, pod: Pod): boolean =>
  npp?.spec?.podProbes?.some((e) => e.namespace === pod.metadata?.namespace && e.name === pod.metadata?.name) ?? false;

/** Whether the status holds a result of one of the PPM's probes, for a pod of its namespace. */
const holdsResultsOf = (npp: NodePodProbe, ppm: PodProbeMarker): boolean =>
  npp.status?.podProbeStatuses?.some((p) => p.namespace === ppm.metadata?.namespace && p.probeStates?.some((st) => st.name.startsWith(`${ppm.metadata?.name}#`))) ?? false;

export const nodePodProbeController: Controller = {
  name: 'nodepodprobe-controller',
  featureGate: 'PodProbeMarkerGate',
  workers: 3,
  setup({ informers, rest, clock }, queue) {
    const nodes = informers.cache<V1Node>(resources.nodes);
    const npps = informers.cache<NodePodProbe>(resources.nodePodProbes);
    const pods = informers.cache<Pod>(resources.pods);
    const ppms = informers.cache<PodProbeMarker>(resources.podProbeMarkers);
    const view = freshView(npps, () => clock.now());

    nodes.onChange((node) => {
      const name = node.metadata?.name ?? '';
      if (isVirtualKubelet(node)) return;
      const live = nodes.get(name);
      if (!live || live.metadata?.deletionTimestamp) { if (npps.get(name)) queue.add(name); return; }
      // A NotReady node gets its NodePodProbe on the update that makes it Ready.
      if (!npps.get(name) && isReady(live)) queue.add(name);
    });
    // Create enqueues; an update only when the daemon's status changed; a delete nothing.
    const statuses = new Map<string, NodePodProbeStatus | undefined>();
    npps.onChange((npp) => {
      const name = npp.metadata?.name ?? '';
      const live = npps.get(name);
      if (!live) { statuses.delete(name); return; }
      const seen = statuses.has(name);
      const before = statuses.get(name);
      statuses.set(name, live.status);
      if (!seen || !isDeepStrictEqual(before ?? {}, live.status ?? {})) queue.add(name);
    });
    // A pod deleted or finished leaves the NodePodProbe that lists it.
    pods.onChange((pod) => {
      const nodeName = pod.spec?.nodeName;
      if (!nodeName) return;
      const live = pods.get(`${pod.metadata?.namespace}/${pod.metadata?.name}`);
      if ((!live || !isPodActive(live)) && lists(npps.get(nodeName), pod)) queue.add(nodeName);
    });

    // Beyond upstream: a PPM created or edited (condition types, markerPolicy) while its results already sit in a
    // NodePodProbe's status reaches those pods now, not at the next change of a result.
    const specs = new Map<string, unknown>();
    ppms.onChange((ppm) => {
      const key = `${ppm.metadata?.namespace}/${ppm.metadata?.name}`;
      const live = ppms.get(key);
      if (!live || live.metadata?.deletionTimestamp) { specs.delete(key); return; }
      if (specs.has(key) && isDeepStrictEqual(specs.get(key), live.spec)) return;
      specs.set(key, live.spec);
      for (const npp of npps.list()) if (holdsResultsOf(npp, live)) queue.add(npp.metadata?.name ?? '');
    });

    return async (name, { log }) => {
      const npp = view.get(name);
      const node = nodes.get(name);
      const nodeGone = !node || !!node.metadata?.deletionTimestamp;
      if (!npp) {
        // Beyond upstream's unconditional create: never one for a node that is gone or virtual.
        if (nodeGone || isVirtualKubelet(node)) return;
        try {
          view.wrote(await rest.create<NodePodProbe>(resources.nodePodProbes,
            { apiVersion: KRUISE_API_VERSION, kind: 'NodePodProbe', metadata: { name }, spec: {} }, { fieldManager: NPP_FIELD_MANAGER }));
          log.info('created NodePodProbe');
        } catch (err) {
          if (!isConflict(err)) throw err;
        }
        return;
      }
      if (nodeGone) {
        if (!npp.metadata?.deletionTimestamp) {
          await rest.delete(resources.nodePodProbes, { name }, { uid: npp.metadata?.uid });
          log.info('deleted the NodePodProbe of a node that is gone');
        }
        return;
      }
      const livePod = (e: { namespace: string; name: string; uid: string }): Pod | undefined => {
        const pod = pods.get(`${e.namespace}/${e.name}`);
        return pod && isPodActive(pod) && pod.metadata?.uid === e.uid ? pod : undefined;
      };
      const live = new Map<string, Pod>();
      for (const e of npp.spec?.podProbes ?? []) {
        const pod = livePod(e);
        if (pod) live.set(e.uid, pod);
      }
      if (live.size < (npp.spec?.podProbes ?? []).length) {
        const wrote = await writePodProbes(rest, clock, name, npp, (n) => (n.spec?.podProbes ?? []).filter((e) => livePod(e) !== undefined));
        if (wrote) view.wrote(wrote);
      }
      for (const status of npp.status?.podProbeStatuses ?? []) {
        const pod = live.get(status.uid);
        if (!pod) continue;
        const ns = pod.metadata?.namespace ?? '';
        const patch = podResultsPatch(pod, probeResults(status, (ppmName) => {
          const ppm = ppms.get(`${ns}/${ppmName}`);
          return ppm && !ppm.metadata?.deletionTimestamp ? ppm : undefined;
        }));
        if (patch) {
          try {
            await rest.patch(resources.pods, { namespace: ns, name: pod.metadata?.name ?? '', subresource: 'status' }, 'strategic', patch, { fieldManager: NPP_FIELD_MANAGER });
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        }
        await yieldToLoop();
      }
    };
  },
};
