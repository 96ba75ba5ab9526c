// A stand-in kubelet for SidecarSet rollouts (spec/daemon-and-controllers.md §8), driven by the test one tick at a time
// over the API directly (kubectl per pod is too slow under load). Each tick observes the pods first, then acts like
// kubelet: a container whose spec image differs from its status is restarted (new imageID, restartCount + 1, not
// ready); a pod restarted at the previous tick becomes ready. Every state the controller produces is therefore seen
// by at least one tick before kubelet changes it.
import { createHash } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { resources } from '../../shared/kube/resources.js';
import { isNotFound, makeRest, type KubeRest } from '../../shared/kube/rest.js';

/** REST client on the test cluster's admin kubeconfig (KUBECONFIG). */
export function testRest(): KubeRest {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  return makeRest(kc);
}

export const imageIDOf = (image: string) => `docker.io/library/${image.split(/[:@]/)[0]}@sha256:${createHash('sha256').update(image).digest('hex')}`;

type Status = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export class StandinKubelet {
  /** Pods restarted at the last tick, made ready at the next. */
  private readonly starting = new Set<string>();
  /** Restarts per pod/container that this kubelet performed, to tell how often the controller changed each image. */
  readonly restarts = new Map<string, number>();

  constructor(private readonly rest: KubeRest, private readonly namespace: string, private readonly node: string) {}

  async pods(): Promise<Pod[]> {
    const list = await this.rest.list<Pod>(resources.pods, { namespace: this.namespace, fieldSelector: `spec.nodeName=${this.node}` });
    return list.items.filter((p) => !p.metadata?.deletionTimestamp);
  }

  /** One kubelet round; returns the pods as observed before it acted. */
  async tick(): Promise<Pod[]> {
    const pods = await this.pods();
    for (const pod of pods) {
      const name = pod.metadata!.name!;
      const before = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
      const changed = pod.spec!.containers.filter((c) => before.get(c.name)?.image !== c.image).map((c) => c.name);
      if (changed.length > 0) {
        const statuses = pod.spec!.containers.map((c): Status => {
          const old = before.get(c.name);
          if (!changed.includes(c.name)) return old!;
          if (old) this.restarts.set(`${name}/${c.name}`, (this.restarts.get(`${name}/${c.name}`) ?? 0) + 1);
          return {
            name: c.name, image: c.image ?? '', imageID: imageIDOf(c.image ?? ''), ready: false, started: true,
            restartCount: old ? (old.restartCount ?? 0) + 1 : 0, containerID: `containerd://${name}-${c.name}-${old ? (old.restartCount ?? 0) + 1 : 0}`,
            state: { running: { startedAt: now() as unknown as Date } },
          };
        });
        await this.write(pod, statuses, false);
        this.starting.add(name);
      } else if (this.starting.has(name)) {
        await this.write(pod, (pod.status?.containerStatuses ?? []).map((s) => ({ ...s, ready: true })), true);
        this.starting.delete(name);
      }
    }
    return pods;
  }

  /**
   * Ticks until `done(pods)` holds for the observed pods (and, unless `settled: false`, no pod is mid-restart),
   * awaiting `check` on every observation first.
   */
  async until(done: (pods: Pod[]) => boolean, o: { timeoutMs?: number; check?: (pods: Pod[]) => unknown; what?: string; settled?: boolean } = {}): Promise<Pod[]> {
    const deadline = Date.now() + (o.timeoutMs ?? 120_000);
    for (;;) {
      const pods = await this.tick();
      await o.check?.(pods);
      if (done(pods) && (o.settled === false || this.starting.size === 0)) return pods;
      if (Date.now() > deadline) throw new Error(`${o.what ?? 'kubelet loop'}: not done within ${o.timeoutMs ?? 120_000} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  private async write(pod: Pod, containerStatuses: Status[], ready: boolean): Promise<void> {
    const t = now();
    const status = {
      phase: 'Running',
      conditions: [{ type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: t }, { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: t }],
      containerStatuses,
    };
    try {
      await this.rest.patch(resources.pods, { namespace: pod.metadata!.namespace!, name: pod.metadata!.name!, subresource: 'status' }, 'strategic', { status });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** Pods whose spec asks for something kubelet has not delivered yet, or that are not ready: the unavailable ones. */
export function unavailable(pods: Pod[]): string[] {
  return pods.filter((p) => {
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    const statuses = new Map((p.status?.containerStatuses ?? []).map((s) => [s.name, s.image]));
    return !ready || p.spec!.containers.some((c) => statuses.get(c.name) !== c.image);
  }).map((p) => p.metadata!.name!);
}

const leases = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true };

/**
 * Node heartbeats for a stand-in node, as kubelet posts them: Ready=True and a renewed Lease in kube-node-lease.
 * Without them the node lifecycle controller declares the node Unknown after its grace period and marks every pod on
 * it NotReady, which kubelet would never let stand. Returns a function that stops the heartbeats.
 */
export function keepNodeReady(rest: KubeRest, node: string, everyMs = 5_000): () => void {
  const beat = async () => {
    const t = new Date().toISOString();
    await rest.patch(resources.nodes, { name: node, subresource: 'status' }, 'strategic', {
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'stand-in kubelet', lastHeartbeatTime: t.replace(/\.\d+Z$/, 'Z') }] },
    });
    const renewTime = t.replace(/Z$/, '000Z');
    try {
      await rest.patch(leases, { namespace: 'kube-node-lease', name: node }, 'merge', { spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await rest.create(leases, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: node, namespace: 'kube-node-lease' },
        spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime } });
    }
  };
  const tick = () => void beat().catch(() => {});
  tick();
  const timer = setInterval(tick, everyMs);
  return () => clearInterval(timer);
}
