// The part of the daemon's CRR sync before any CRI call (spec/daemon-and-controllers.md §4.4 steps 1–3 and the
// runtime check of step 4), as pure decisions over the cached CRRs of one pod.
import {
  CRRPodUIDLabel,
  CRRUnreadyAcquiredKey,
  type ContainerRecreateRequest,
} from '../../shared/api/container-recreate-request.js';
import { parseContainerId } from './observed.js';
import { timeMs } from './states.js';

export const POD_GONE = 'pod has gone';

const phaseWeight = (phase: string | undefined): number =>
  ({ Completed: 1, Recreating: 2, Pending: 3 } as Record<string, number>)[phase ?? ''] ?? 4;

const finished = (crr: ContainerRecreateRequest) => !!crr.metadata?.deletionTimestamp || !!crr.status?.completionTime;

export interface Pick {
  picked?: ContainerRecreateRequest;
  /** Later CRRs still in phase "": the caller sets them to Pending. */
  toPending: ContainerRecreateRequest[];
  /** The scan stopped at a CRR whose cached copy predates our last write. */
  stale: boolean;
}

/**
 * Orders the pod's CRRs by phase weight (Completed, Recreating, Pending, "") then age, skips finished ones, and
 * picks the first. `ready(crr)` says whether the cache already shows our last write to it; a CRR that is not ready
 * ends the scan for this round (the write's watch event brings the next one).
 */
export function pickRequest(crrs: readonly ContainerRecreateRequest[], ready: (crr: ContainerRecreateRequest) => boolean): Pick {
  const sorted = [...crrs].sort((a, b) => {
    const w = phaseWeight(a.status?.phase) - phaseWeight(b.status?.phase);
    return w !== 0 ? w : (timeMs(a.metadata?.creationTimestamp) ?? 0) - (timeMs(b.metadata?.creationTimestamp) ?? 0);
  });
  const out: Pick = { toPending: [], stale: false };
  for (const crr of sorted) {
    if (finished(crr)) continue;
    if (!ready(crr)) {
      out.stale = true;
      break;
    }
    if (!out.picked) out.picked = crr;
    else if (!crr.status?.phase) out.toPending.push(crr);
  }
  return out;
}

export interface PreambleInput {
  crr: ContainerRecreateRequest;
  /** False when the pod is missing, deleting, or has another UID than the CRR's pod-uid label. */
  podPresent: boolean;
  /** Runtime names this daemon can talk to (e.g. `containerd`). */
  runtimes: ReadonlySet<string>;
  nowMs: number;
}

export type Preamble =
  | { type: 'set-phase'; phase: 'Recreating' }
  | { type: 'complete'; message: string }
  /** Wait for the manager's `unready-acquired` stamp (the CRR update re-triggers the sync). */
  | { type: 'wait-unready' }
  | { type: 'requeue'; afterMs: number }
  | { type: 'manage'; runtime: string };

/** What to do with the picked CRR before looking at its containers. */
export function planPreamble(input: PreambleInput): Preamble {
  const { crr } = input;
  if (!input.podPresent) return { type: 'complete', message: POD_GONE };
  if (crr.status?.phase !== 'Recreating') return { type: 'set-phase', phase: 'Recreating' };

  const grace = crr.spec?.strategy?.unreadyGracePeriodSeconds;
  if (grace != null) {
    const stamp = crr.metadata?.annotations?.[CRRUnreadyAcquiredKey] ?? '';
    if (!stamp) return { type: 'wait-unready' };
    const at = parseRfc3339(stamp);
    if (at === undefined) return { type: 'complete', message: `failed to parse unready time ${stamp}: not an RFC3339 time` };
    const left = at + grace * 1000 - input.nowMs;
    if (left > 0) return { type: 'requeue', afterMs: left + 100 };
  }

  const runtime = runtimeOf(crr, input.runtimes);
  if ('error' in runtime) return { type: 'complete', message: `failed to find runtime service: ${runtime.error}` };
  return { type: 'manage', runtime: runtime.name };
}

/** Every container's statusContext.containerID must name the same known runtime. */
export function runtimeOf(crr: ContainerRecreateRequest, known: ReadonlySet<string>): { name: string } | { error: string } {
  let name: string | undefined;
  for (const c of crr.spec?.containers ?? []) {
    const id = c.statusContext?.containerID;
    const parsed = parseContainerId(id);
    if (!parsed) return { error: `failed to parse containerID ${JSON.stringify(id ?? '')} of container ${c.name}` };
    if (name !== undefined && parsed.runtime !== name) return { error: `containers run on different runtimes ${name} and ${parsed.runtime}` };
    name = parsed.runtime;
  }
  if (name === undefined) return { error: 'no containers' };
  if (!known.has(name)) return { error: `not found runtime service for ${name} in daemon` };
  return { name };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Go's time.Parse(time.RFC3339, s) acceptance, loosely: the shape must match and the date must be real. */
export function parseRfc3339(s: string): number | undefined {
  if (!RFC3339.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The pod behind a CRR is present when it exists, is not deleting and has the CRR's pod-uid. */
export function podMatches(crr: ContainerRecreateRequest, pod: { metadata?: { uid?: string; deletionTimestamp?: unknown } } | undefined): boolean {
  return !!pod && !pod.metadata?.deletionTimestamp && pod.metadata?.uid === crr.metadata?.labels?.[CRRPodUIDLabel];
}
