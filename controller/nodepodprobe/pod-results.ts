// Probe results onto the pod (spec/node-probes-and-sidecar-lifecycle.md §5.3): per state of the pod's NodePodProbe
// status, its PPM probe's condition (True when Succeeded, else False) and its markerPolicy (the matching state's
// labels and annotations set, the other states' removed). Pure: the write is returned as a strategic-merge patch of
// pods/status, or undefined when the pod already shows it.
import type { V1PodCondition } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { PodProbeStatus } from '../../shared/api/node-pod-probe.js';
import type { PodProbeMarker } from '../../shared/api/pod-probe-marker.js';

export interface ProbeResults {
  conditions: V1PodCondition[];
  /** Label and annotation marks: a value to set, or null to remove. Later states override earlier ones. */
  labels: Map<string, string | null>;
  annotations: Map<string, string | null>;
}

/**
 * What a pod's probe states ask for. `markerOf` gives the pod's PPM by name, undefined when it is gone or being
 * deleted (its states are skipped). A state name without `#` is skipped (upstream panics on it, §11 quirk 4).
 */
export function probeResults(status: PodProbeStatus, markerOf: (name: string) => PodProbeMarker | undefined): ProbeResults {
  const out: ProbeResults = { conditions: [], labels: new Map(), annotations: new Map() };
  const types = new Set<string>();
  for (const s of status.probeStates ?? []) {
    const hash = s.name.indexOf('#');
    if (!s.state || hash < 0) continue;
    const ppm = markerOf(s.name.slice(0, hash));
    if (!ppm) continue;
    const probeName = s.name.slice(hash + 1).split('#')[0];
    const probe = ppm.spec?.probes?.find((p) => p.name === probeName);
    const type = probe?.podConditionType ?? '';
    // A condition type already written in this pass is a conflict: no second condition, but the policy still applies.
    if (type !== '' && !types.has(type)) {
      types.add(type);
      const c: V1PodCondition = { type, status: s.state === 'Succeeded' ? 'True' : 'False' };
      if (s.lastProbeTime) c.lastProbeTime = s.lastProbeTime as never;
      if (s.lastTransitionTime) c.lastTransitionTime = s.lastTransitionTime as never;
      if (s.message) c.message = s.message;
      out.conditions.push(c);
    }
    let matched;
    let opposite;
    for (const p of probe?.markerPolicy ?? []) {
      if (p.state === s.state) matched = p;
      else opposite = p;
    }
    for (const k of Object.keys(opposite?.labels ?? {})) out.labels.set(k, null);
    for (const k of Object.keys(opposite?.annotations ?? {})) out.annotations.set(k, null);
    for (const [k, v] of Object.entries(matched?.labels ?? {})) out.labels.set(k, v);
    for (const [k, v] of Object.entries(matched?.annotations ?? {})) out.annotations.set(k, v);
  }
  return out;
}

/** The marks that change `current` (a removal of an absent key or a set to the same value changes nothing). */
function mapChanges(current: Record<string, string> | undefined, marks: Map<string, string | null>): Record<string, string | null> | undefined {
  const out: Record<string, string | null> = {};
  let any = false;
  for (const [k, v] of marks) {
    const has = current !== undefined && Object.hasOwn(current, k);
    if (v === null ? has : !has || current![k] !== v) { out[k] = v; any = true; }
  }
  return any ? out : undefined;
}

/**
 * The pods/status patch for `results` over `pod`: a produced condition replaces the pod's condition of its type only
 * when none exists or its status or message differs (SetPodConditionIfMsgChanged), replacing it whole (fields it lacks
 * are nulled); labels and annotations ride along in metadata, as upstream's status update carries them.
 */
export function podResultsPatch(pod: Pod, results: ProbeResults): object | undefined {
  const conditions: Record<string, unknown>[] = [];
  for (const c of results.conditions) {
    const existing = pod.status?.conditions?.find((x) => x.type === c.type);
    if (existing && existing.status === c.status && (existing.message ?? '') === (c.message ?? '')) continue;
    const replacement: Record<string, unknown> = {};
    for (const k of Object.keys(existing ?? {})) replacement[k] = null;
    conditions.push(Object.assign(replacement, c));
  }
  const labels = mapChanges(pod.metadata?.labels, results.labels);
  const annotations = mapChanges(pod.metadata?.annotations, results.annotations);
  if (!conditions.length && !labels && !annotations) return undefined;
  const metadata = { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) };
  return { ...(labels || annotations ? { metadata } : {}), ...(conditions.length ? { status: { conditions } } : {}) };
}
