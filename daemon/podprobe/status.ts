// The status sync's decision (spec §6.5), pure: the NodePodProbe's next status from its spec, its current status
// and the cached results, and the events to emit. Results of probes no longer in the spec are pruned, pod entries
// left without states are dropped, and each valid result is upserted with upstream's transition-time rule.
import type { ContainerProbeState, NodePodProbe, NodePodProbeStatus, PodProbeStatus } from '../../shared/api/node-pod-probe.js';
import { metaTime } from '../../shared/kube/meta-time.js';
import { probeKeyString, type ProbeResult } from './results.js';

export const REASON_PROBE_SUCCEEDED = 'KruiseProbeSucceeded';
export const REASON_PROBE_FAILED = 'KruiseProbeFailed';

export interface ProbeEvent {
  involvedObject: { kind: 'Pod'; apiVersion: 'v1'; namespace: string; name: string; uid: string };
  /** Normal for both outcomes, as upstream. */
  type: 'Normal';
  reason: string;
  message: string;
}

/** `<podUID>/<probe name>` of every probe in the spec. */
export function validProbes(npp: NodePodProbe): Set<string> {
  const valid = new Set<string>();
  for (const pod of npp.spec?.podProbes ?? []) for (const p of pod.probes ?? []) valid.add(`${pod.uid}/${p.name}`);
  return valid;
}

/** `byUid` indexes `status` (first entry per uid wins, as upstream's scan), so a sync stays linear in the results. */
function upsert(status: PodProbeStatus[], byUid: Map<string, PodProbeStatus>, r: ProbeResult, now: string, timeOf: (ms: number) => string): void {
  let pod = byUid.get(r.key.podUid);
  if (!pod) {
    pod = { name: r.key.podName, namespace: r.key.podNs, uid: r.key.podUid };
    status.push(pod);
    byUid.set(r.key.podUid, pod);
  }
  const states = (pod.probeStates ??= []);
  const next: ContainerProbeState = { name: r.key.probeName, state: r.state, lastProbeTime: timeOf(r.lastProbeTimeMs), lastTransitionTime: now };
  if (r.message) next.message = r.message;
  const i = states.findIndex((s) => s.name === r.key.probeName);
  if (i < 0) states.push(next);
  else states[i] = { ...next, lastTransitionTime: states[i].state === r.state ? states[i].lastTransitionTime : next.lastTransitionTime };
}

export interface StatusPlan {
  status: NodePodProbeStatus;
  /** Whether `status` differs from the object's: only then is it written. */
  changed: boolean;
  events: ProbeEvent[];
}

/**
 * `fresh` holds the keys (probeKeyString) stored since the last sync. Kruise deviation (§11.7): upstream emits an
 * event for every cached result on every sync; here a result gets its event once, when it is stored.
 */
export function planStatus(npp: NodePodProbe, results: readonly ProbeResult[], fresh: ReadonlySet<string>, nowMs: number): StatusPlan {
  const valid = validProbes(npp);
  const statuses: PodProbeStatus[] = [];
  for (const old of npp.status?.podProbeStatuses ?? []) {
    const kept = (old.probeStates ?? []).filter((s) => valid.has(`${old.uid}/${s.name}`)).map((s) => ({ ...s }));
    if (kept.length) statuses.push({ name: old.name, namespace: old.namespace, uid: old.uid, probeStates: kept });
  }
  const now = metaTime(nowMs);
  // Results stored in the same second share their text: formatting a date per state per sync was the plan's main cost.
  const texts = new Map<number, string>();
  const timeOf = (ms: number) => {
    const sec = Math.floor(ms / 1000);
    let t = texts.get(sec);
    if (t === undefined) texts.set(sec, (t = metaTime(ms)));
    return t;
  };
  const byUid = new Map<string, PodProbeStatus>();
  for (const p of statuses) if (!byUid.has(p.uid)) byUid.set(p.uid, p);
  const events: ProbeEvent[] = [];
  for (const r of results) {
    if (!valid.has(`${r.key.podUid}/${r.key.probeName}`)) continue;
    if (fresh.has(probeKeyString(r.key))) {
      events.push({
        involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace: r.key.podNs, name: r.key.podName, uid: r.key.podUid },
        type: 'Normal', reason: r.state === 'Succeeded' ? REASON_PROBE_SUCCEEDED : REASON_PROBE_FAILED, message: r.message,
      });
    }
    upsert(statuses, byUid, r, now, timeOf);
  }
  const status: NodePodProbeStatus = statuses.length ? { podProbeStatuses: statuses } : {};
  return { status, events, changed: !sameStatus(npp.status ?? {}, status) };
}

/** Equal as the apiserver stores them: absent and empty lists alike, times at second precision (metaTime). */
function sameStatus(a: NodePodProbeStatus, b: NodePodProbeStatus): boolean {
  const norm = (s: NodePodProbeStatus) => JSON.stringify((s.podProbeStatuses ?? []).map((p) => ({
    name: p.name, namespace: p.namespace, uid: p.uid,
    probeStates: (p.probeStates ?? []).map((x) => [x.name, x.state, x.lastProbeTime ?? '', x.lastTransitionTime ?? '', x.message ?? '']),
  })));
  return norm(a) === norm(b);
}
