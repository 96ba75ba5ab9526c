// How a PodProbeMarker's probes land in a node's NodePodProbe (spec/node-probes-and-sidecar-lifecycle.md §4.3, §4.5):
// one entry per pod, probes named `<ppm>#<probe>`, named ports resolved to numbers. Pure: the spec in, the new spec
// out. Unlike upstream (§11 quirk 3), a probe dropped from the PPM, one whose port no longer resolves, and the probes
// of a pod the PPM no longer matches are removed, so the daemon stops running them.
import type { Pod } from '../../shared/api/meta.js';
import { nodeProbeName, type ContainerProbe, type NodePodProbeSpec, type PodProbe } from '../../shared/api/node-pod-probe.js';
import type { PodContainerProbe, PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { isDeepStrictEqual } from 'node:util';

/** k8s ExtractPort over the container's ports for a named port: its containerPort, else the string as a decimal; 1-65535. */
function resolvePort(port: string, probe: PodContainerProbe, pod: Pod): number | { error: string } {
  const ns = pod.metadata?.namespace;
  const name = pod.metadata?.name;
  const container = pod.spec?.containers?.find((c) => c.name === probe.containerName);
  if (!container) return { error: `Failed to get container by name: ${probe.containerName} in pod: ${ns}/${name}` };
  const byName = container.ports?.find((p) => p.name === port)?.containerPort;
  const n = byName ?? (/^[+-]?\d+$/.test(port) ? Number(port) : NaN);
  return n > 0 && n < 65536 ? n : { error: `Failed to extract port for container: ${container.name} in pod: ${ns}/${name}` };
}

/** The node probe of one PPM probe for one pod, or the error text when a named port does not resolve. */
export function nodeProbe(ppmName: string, probe: PodContainerProbe, pod: Pod): ContainerProbe | string {
  const spec = structuredClone(probe.probe ?? {});
  for (const handler of [spec.tcpSocket, spec.httpGet]) {
    // Integer ports are copied as they are.
    if (typeof handler?.port !== 'string') continue;
    const port = resolvePort(handler.port, probe, pod);
    if (typeof port !== 'number') return port.error;
    handler.port = port;
  }
  return { name: nodeProbeName(ppmName, probe.name), containerName: probe.containerName, probe: spec };
}

const ownedBy = (ppmName: string) => (p: ContainerProbe): boolean => p.name.startsWith(`${ppmName}#`);

export interface Merged { podProbes: PodProbe[]; errors: string[] }

/**
 * §4.3 for the PPM's matched pods on this node (`pods`), then the clean-up of its probes on pods of its namespace that
 * it no longer matches (`matched`: the uids of every pod it matches, on any node).
 */
export function mergeNodePodProbe(spec: NodePodProbeSpec | undefined, ppm: PodProbeMarker, pods: readonly Pod[], matched: ReadonlySet<string>): Merged {
  const ppmName = ppm.metadata?.name ?? '';
  const ns = ppm.metadata?.namespace;
  const podProbes = structuredClone(spec?.podProbes ?? []);
  const errors: string[] = [];
  const byKey = new Map(podProbes.map((e) => [`${e.namespace}/${e.name}/${e.uid}`, e]));
  for (const pod of pods) {
    const converted: ContainerProbe[] = [];
    for (const probe of ppm.spec?.probes ?? []) {
      const p = nodeProbe(ppmName, probe, pod);
      if (typeof p === 'string') errors.push(p);
      else converted.push(p);
    }
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}/${pod.metadata?.uid}`;
    const entry = byKey.get(key);
    if (!entry) {
      const added: PodProbe = { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', uid: pod.metadata?.uid ?? '', IP: pod.status?.podIP ?? '' };
      if (converted.length) added.probes = converted;
      podProbes.push(added);
      byKey.set(key, added);
      continue;
    }
    if (entry.IP === '') entry.IP = pod.status?.podIP ?? '';
    const wanted = new Set(converted.map((p) => p.name));
    const probes = (entry.probes ?? []).filter((p) => !ownedBy(ppmName)(p) || wanted.has(p.name));
    for (const p of converted) {
      const i = probes.findIndex((o) => o.name === p.name);
      if (i < 0) probes.push(p);
      else if (!isDeepStrictEqual(probes[i], p)) probes[i] = p;
    }
    setProbes(entry, probes);
  }
  const kept = podProbes.filter((e) => {
    if (e.namespace !== ns || matched.has(e.uid) || !(e.probes ?? []).some(ownedBy(ppmName))) return true;
    setProbes(e, e.probes!.filter((p) => !ownedBy(ppmName)(p)));
    return (e.probes ?? []).length > 0;
  });
  return { podProbes: kept, errors };
}

function setProbes(entry: PodProbe, probes: ContainerProbe[]): void {
  if (probes.length) entry.probes = probes;
  else delete entry.probes;
}

/** Whether this node's NodePodProbe holds probes of the PPM on pods it no longer matches (the node needs a visit). */
export function holdsUnmatched(spec: NodePodProbeSpec | undefined, ppm: PodProbeMarker, matched: ReadonlySet<string>): boolean {
  const ppmName = ppm.metadata?.name ?? '';
  return (spec?.podProbes ?? []).some((e) => e.namespace === ppm.metadata?.namespace && !matched.has(e.uid) && (e.probes ?? []).some(ownedBy(ppmName)));
}

/**
 * §4.5 for a deleted PPM: in its namespace, its probes removed and entries left without probes dropped; other
 * namespaces untouched. Probe names are matched by the `<ppm>#` prefix, not upstream's substring (§11 quirk 2).
 */
export function removeMarkerProbes(spec: NodePodProbeSpec | undefined, namespace: string, ppmName: string): PodProbe[] {
  const out: PodProbe[] = [];
  for (const e of spec?.podProbes ?? []) {
    if (e.namespace !== namespace) { out.push(e); continue; }
    const probes = (e.probes ?? []).filter((p) => !ownedBy(ppmName)(p));
    if (probes.length) out.push({ ...e, probes });
  }
  return out;
}

/** Whether the spec holds any probe of this PPM (the node needs cleaning). */
export const holdsMarker = (spec: NodePodProbeSpec | undefined, namespace: string, ppmName: string): boolean =>
  (spec?.podProbes ?? []).some((e) => e.namespace === namespace && (e.probes ?? []).some(ownedBy(ppmName)));
