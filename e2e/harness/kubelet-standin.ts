// Plays kubelet's part for pods on a Node that no kubelet or kwok manages (spec/daemon-and-controllers.md §8): the
// test decides when containers run, restart and become ready, and this writes pod status as kubelet would.
import { kubectl, kubectlOk } from './kube.js';

/** A Node object with no agent behind it; pods bound to it by nodeName stay exactly as the test writes them. */
export function ensureStandinNode(name: string): void {
  if (kubectl(['get', 'node', name]).code === 0) return;
  kubectlOk(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kruise-ts.io/standin': 'true' } },
    // Keeps the scheduler from placing unrelated pods here; tests bind theirs with spec.nodeName.
    spec: { taints: [{ key: 'kruise-ts.io/standin', value: 'true', effect: 'NoSchedule' }] },
  }));
}

export interface ContainerState {
  name: string;
  ready: boolean;
  /** Defaults to the pod spec's image. */
  image?: string;
  imageID?: string;
  containerID?: string;
  restartCount?: number;
  /** RFC 3339; defaults to now. */
  startedAt?: string;
}

interface PodLike { spec: { containers: { name: string; image?: string }[]; readinessGates?: { conditionType: string }[] }; status?: { conditions?: { type: string; status: string }[] } }

/**
 * Writes status.containerStatuses, phase Running and the ContainersReady / Ready conditions (Ready also needs every
 * readiness gate condition True, as kubelet computes it). Other conditions already on the pod are kept.
 */
export function writeContainerStatuses(namespace: string, name: string, states: ContainerState[]): void {
  const pod = JSON.parse(kubectlOk(['get', 'pod', '-n', namespace, name, '-o', 'json'])) as PodLike;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const byName = new Map(states.map((s) => [s.name, s]));
  const containerStatuses = pod.spec.containers.map((c) => {
    const s = byName.get(c.name);
    const image = s?.image ?? c.image ?? '';
    return {
      name: c.name, ready: s?.ready ?? false, restartCount: s?.restartCount ?? 0, started: s !== undefined,
      image, imageID: s?.imageID ?? `${image}@sha256:${'0'.repeat(64)}`,
      ...(s ? { containerID: s.containerID ?? `containerd://${c.name}-${s.restartCount ?? 0}`, state: { running: { startedAt: s.startedAt ?? now } } }
        : { state: { waiting: { reason: 'ContainerCreating' } } }),
    };
  });
  const containersReady = containerStatuses.every((c) => c.ready);
  const others = (pod.status?.conditions ?? []).filter((c) => c.type !== 'Ready' && c.type !== 'ContainersReady');
  const gatesTrue = (pod.spec.readinessGates ?? []).every((g) => others.some((c) => c.type === g.conditionType && c.status === 'True'));
  const cond = (type: string, ok: boolean) => ({ type, status: ok ? 'True' : 'False', lastTransitionTime: now });
  const status = {
    phase: 'Running',
    conditions: [...others, cond('ContainersReady', containersReady), cond('Ready', containersReady && gatesTrue)],
    containerStatuses,
  };
  kubectlOk(['patch', 'pod', '-n', namespace, name, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
}
