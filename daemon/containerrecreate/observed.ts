// The daemon's view of one pod's containers on this node, read through CRI the way kubelet's kuberuntime reads it
// (spec/daemon-and-controllers.md §1.4): ListContainers by the pod UID label, then ContainerStatus for each,
// newest CreatedAt first so "find by name" returns the most recent instance of that container.
import { isCriError } from '../cri/errors.js';
import type { ContainerState, RuntimeService } from '../cri/runtime.js';

export const POD_UID_LABEL = 'io.kubernetes.pod.uid';
export const CONTAINER_NAME_LABEL = 'io.kubernetes.container.name';
export const RESTART_COUNT_ANNOTATION = 'io.kubernetes.container.restartCount';

export interface ObservedContainer {
  /** `<runtime>://<CRI id>`, the form of pod.status.containerStatuses[].containerID. */
  id: string;
  criId: string;
  /** From the `io.kubernetes.container.name` label. */
  name: string;
  state: ContainerState;
  createdAtNs: bigint;
  /** Absent while the container is only created. */
  startedAtMs?: number;
  /** From the `io.kubernetes.container.restartCount` annotation kubelet writes (0 when absent or unparsable). */
  restartCount: number;
}

export interface ParsedContainerId {
  runtime: string;
  id: string;
}

/** Parses `containerd://abc` (kubecontainer.ParseContainerID); undefined unless both parts are non-empty. */
export function parseContainerId(s: string | undefined): ParsedContainerId | undefined {
  const m = /^([^:/]+):\/\/(.+)$/.exec(s ?? '');
  return m ? { runtime: m[1]!, id: m[2]! } : undefined;
}

/**
 * The pod's containers, newest first. Only the newest instance of each name is ever judged, so only those get a
 * ContainerStatus call (in parallel; older instances keep what ListContainers says). A container removed between
 * the list and its status is left out.
 */
export async function readPodContainers(runtime: RuntimeService, runtimeName: string, podUid: string): Promise<ObservedContainer[]> {
  const listed = (await runtime.listContainers({ labelSelector: { [POD_UID_LABEL]: podUid } }))
    .sort((a, b) => (a.createdAtNs === b.createdAtNs ? 0 : a.createdAtNs > b.createdAtNs ? -1 : 1));
  const seen = new Set<string>();
  const observed = await Promise.all(listed.map(async (c): Promise<ObservedContainer | undefined> => {
    const name = c.labels[CONTAINER_NAME_LABEL] ?? '';
    const base = { id: `${runtimeName}://${c.id}`, criId: c.id, name, state: c.state, createdAtNs: c.createdAtNs, restartCount: restartCountOf(c.annotations) };
    if (seen.has(name)) return base;
    seen.add(name);
    let status;
    try {
      status = await runtime.containerStatus(c.id);
    } catch (err) {
      if (isCriError(err, 'not-found')) return undefined;
      throw err;
    }
    return {
      ...base,
      state: status.state,
      ...(status.state !== 'created' && status.startedAtNs > 0n ? { startedAtMs: Number(status.startedAtNs / 1_000_000n) } : {}),
      restartCount: restartCountOf(status.annotations),
    };
  }));
  return observed.filter((c): c is ObservedContainer => c !== undefined);
}

function restartCountOf(annotations: Record<string, string>): number {
  const n = Number.parseInt(annotations[RESTART_COUNT_ANNOTATION] ?? '', 10);
  return Number.isFinite(n) ? n : 0;
}

/** The most recent instance of container `name` in a newest-first list. */
export function newestByName(containers: readonly ObservedContainer[], name: string): ObservedContainer | undefined {
  return containers.find((c) => c.name === name);
}
