// Per-container recreate states of a CRR from what CRI shows now (spec/daemon-and-controllers.md §4.4, "Per-container
// state computation"). Pure: the CRR, the pod's observed containers and the time in, states out.
import {
  CRRSyncContainerStatusesAnnotation,
  type ContainerRecreateRequest,
  type ContainerRecreateRequestContainerRecreateState as RecreateState,
} from '../../shared/api/container-recreate-request.js';
import { newestByName, type ObservedContainer } from './observed.js';

export const NOT_FOUND_ON_NODE = 'not found container on Node';

/** One entry of the manager's `crr.apps.kruise.io/sync-container-statuses` annotation. */
export interface SyncedContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  containerID: string;
}

/** The annotation as a map by container name; a missing or unparsable annotation is an empty map (as upstream). */
export function syncedStatuses(crr: ContainerRecreateRequest): Map<string, SyncedContainerStatus> {
  const raw = crr.metadata?.annotations?.[CRRSyncContainerStatusesAnnotation];
  const out = new Map<string, SyncedContainerStatus>();
  if (!raw) return out;
  try {
    const list = JSON.parse(raw) as unknown;
    if (Array.isArray(list)) for (const s of list) if (s && typeof s.name === 'string') out.set(s.name, s as SyncedContainerStatus);
  } catch { /* upstream logs and ignores it; the manager rewrites it on the next pod change */ }
  return out;
}

/** Milliseconds of a Kubernetes time (RFC3339 string, or a Date from client-node's typed lists). */
export function timeMs(t: string | Date | undefined): number | undefined {
  if (t === undefined) return undefined;
  const ms = t instanceof Date ? t.getTime() : Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

const isFinal = (phase: string | undefined) => phase === 'Succeeded' || phase === 'Failed';

/**
 * Succeeded and Failed are sticky. Otherwise, from the newest CRI instance of each container:
 * - none → Pending, `not found container on Node`;
 * - exited → Recreating (kubelet restarts it);
 * - forceRecreate and not killed by us yet → Pending (forces our kill even if it is already restarting);
 * - a different ID, a higher restart count, or started in a later second than the CRR was created → Recreating,
 *   promoted to Succeeded once the manager reports that very container ready and it has run > minStartedSeconds;
 * - else (the same container still running) → Pending.
 * `isKilled` is carried over from the previous state in every case.
 */
export function currentStates(crr: ContainerRecreateRequest, containers: readonly ObservedContainer[], nowMs: number): RecreateState[] {
  const previous = new Map((crr.status?.containerRecreateStates ?? []).map((s) => [s.name, s]));
  const synced = syncedStatuses(crr);
  const strategy = crr.spec?.strategy ?? {};
  const minStartedMs = (strategy.minStartedSeconds ?? 0) * 1000;
  // creationTimestamp has whole-second precision; comparing whole seconds avoids taking a container that started
  // earlier in the same second for a recreated one (see docs/compatibility.md).
  const createdSec = Math.floor((timeMs(crr.metadata?.creationTimestamp) ?? 0) / 1000);

  return (crr.spec?.containers ?? []).map((c): RecreateState => {
    const prev = previous.get(c.name);
    if (prev && isFinal(prev.phase)) return prev;
    const killed = prev?.isKilled ? { isKilled: true } : {};
    const obs = newestByName(containers, c.name);
    if (!obs) return { name: c.name, phase: 'Pending', message: NOT_FOUND_ON_NODE, ...killed };
    if (obs.state === 'exited') return { name: c.name, phase: 'Recreating', ...killed };
    if (strategy.forceRecreate && !prev?.isKilled) return { name: c.name, phase: 'Pending' };
    const ctx = c.statusContext;
    const replaced = obs.id !== ctx?.containerID
      || obs.restartCount > (ctx?.restartCount ?? 0)
      || (obs.startedAtMs !== undefined && Math.floor(obs.startedAtMs / 1000) > createdSec);
    if (!replaced) return { name: c.name, phase: 'Pending', ...killed };
    const s = synced.get(c.name);
    const ready = s !== undefined && s.containerID === obs.id && s.ready === true
      && obs.startedAtMs !== undefined && nowMs - obs.startedAtMs > minStartedMs;
    return { name: c.name, phase: ready ? 'Succeeded' : 'Recreating', ...killed };
  });
}
