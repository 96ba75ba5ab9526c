// A Node backed by a real containerd, with the test playing kubelet (spec/daemon-and-controllers.md §8, "CRR"):
// pods bound to it get real sandboxes and containers labelled as kubelet labels them, their status is written as
// kubelet writes it, and a container that exits is recreated with a new ID and restartCount + 1. kwok ignores the
// node (no kwok annotation); a renewed Lease keeps the node lifecycle controller from marking it unreachable.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { RuntimeService } from '../../daemon/cri/runtime.js';
import { resources, type Resource } from '../../shared/kube/resources.js';
import { isConflict, isNotFound, type KubeRest } from '../../shared/kube/rest.js';
import type { KubeletCri } from './runtime/index.js';

const leases: Resource = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true };
const rfc3339 = (ms = Date.now()) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
const microTime = () => new Date().toISOString().replace(/Z$/, '000Z');

export interface StandinContainer {
  name: string;
  command: string[];
  /** preStop exec command, copied into the pod spec (the daemon runs it). */
  preStop?: string[];
  /** In the pod spec and status, but never created on the node. */
  missing?: boolean;
}

export interface StandinPodSpec {
  namespace: string;
  name: string;
  containers: StandinContainer[];
  readinessGate?: boolean;
  terminationGracePeriodSeconds?: number;
}

interface Tracked {
  spec: StandinPodSpec;
  uid: string;
  sandboxId: string;
  /** Container name → CRI ids, oldest first. */
  ids: Map<string, string[]>;
  startedAtMs: Map<string, number>;
}

type Obj = KubernetesObject & Record<string, any>;

export class CriNodeStandin {
  private readonly pods = new Map<string, Tracked>();
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private busy = false;
  /** Errors of the restart loop (e.g. while containerd is down); tests may look at them. */
  readonly errors: string[] = [];

  constructor(private readonly o: { rest: KubeRest; kubelet: KubeletCri; cri: RuntimeService; nodeName: string; image: string; pollMs?: number }) {}

  /** Creates the Node (Ready) and its Lease, renews both every 10 s, and starts watching containers. */
  async start(): Promise<void> {
    const { rest, nodeName } = this.o;
    if (!(await rest.find(resources.nodes, { name: nodeName }))) {
      await rest.create(resources.nodes, {
        apiVersion: 'v1', kind: 'Node',
        metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName, 'kruise-ts.io/standin': 'true' } },
        spec: { taints: [{ key: 'kruise-ts.io/standin', value: 'true', effect: 'NoSchedule' }] },
      } as Obj);
    }
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch((e: unknown) => this.errors.push(`heartbeat: ${String(e)}`)), 10_000);
    this.timer = setInterval(() => void this.tick(), this.o.pollMs ?? 200);
  }

  /** Stops the loops; with `removeNode`, also deletes the Node and its Lease. */
  async stop(opts: { removeNode?: boolean } = {}): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
    if (!opts.removeNode) return;
    await this.o.rest.delete(leases, { namespace: 'kube-node-lease', name: this.o.nodeName });
    await this.o.rest.delete(resources.nodes, { name: this.o.nodeName });
  }

  private async beat(): Promise<void> {
    const { rest, nodeName } = this.o;
    const now = rfc3339();
    await rest.patch(resources.nodes, { name: nodeName, subresource: 'status' }, 'strategic', {
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'test stand-in', lastHeartbeatTime: now, lastTransitionTime: now }],
        capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    });
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: nodeName, namespace: 'kube-node-lease' },
      spec: { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime: microTime() } };
    const cur = await rest.find<Obj>(leases, { namespace: 'kube-node-lease', name: nodeName });
    if (!cur) await rest.create(leases, lease as Obj);
    else await rest.replace(leases, { ...cur, spec: lease.spec });
  }

  /** Creates the Pod bound to this node, its sandbox and containers, and writes a Running status. */
  async createPod(spec: StandinPodSpec): Promise<{ uid: string; ids: Record<string, string> }> {
    const { rest, kubelet, nodeName, image } = this.o;
    const pod = await rest.create<Obj>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { namespace: spec.namespace, name: spec.name },
      spec: {
        nodeName, terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 30,
        tolerations: [{ key: 'kruise-ts.io/standin', operator: 'Exists' }],
        ...(spec.readinessGate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}),
        containers: spec.containers.map((c) => ({
          name: c.name, image, command: c.command,
          ...(c.preStop ? { lifecycle: { preStop: { exec: { command: c.preStop } } } } : {}),
        })),
      },
    } as Obj);
    const uid = pod.metadata!.uid!;
    const testPod = { name: spec.name, namespace: spec.namespace, uid };
    const sandboxId = await kubelet.runPodSandbox(testPod);
    const t: Tracked = { spec, uid, sandboxId, ids: new Map(), startedAtMs: new Map() };
    for (const c of spec.containers) {
      if (c.missing) {
        t.ids.set(c.name, [`missing-${c.name}`]);
        t.startedAtMs.set(c.name, Date.now());
        continue;
      }
      t.ids.set(c.name, [await kubelet.startContainer(sandboxId, testPod, { name: c.name, image, command: c.command })]);
      t.startedAtMs.set(c.name, Date.now());
    }
    this.pods.set(`${spec.namespace}/${spec.name}`, t);
    await this.writeStatus(t, true);
    return { uid, ids: Object.fromEntries([...t.ids].map(([n, ids]) => [n, ids[0]!])) };
  }

  /** Every CRI id the container has had, oldest first. */
  history(namespace: string, pod: string, container: string): string[] {
    return [...(this.pods.get(`${namespace}/${pod}`)?.ids.get(container) ?? [])];
  }

  /** Stops tracking the pod (its containers are no longer restarted). */
  forget(namespace: string, pod: string): void {
    this.pods.delete(`${namespace}/${pod}`);
  }

  /** One pass of kubelet's sync: any container whose newest instance exited is started again (attempt + 1). */
  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (const t of this.pods.values()) {
        let changed = false;
        for (const c of t.spec.containers) {
          if (c.missing) continue;
          const ids = t.ids.get(c.name)!;
          const status = await this.o.cri.containerStatus(ids[ids.length - 1]!);
          if (status.state !== 'exited') continue;
          const testPod = { name: t.spec.name, namespace: t.spec.namespace, uid: t.uid };
          ids.push(await this.o.kubelet.startContainer(t.sandboxId, testPod, { name: c.name, image: this.o.image, command: c.command, attempt: ids.length }));
          t.startedAtMs.set(c.name, Date.now());
          changed = true;
        }
        if (changed) await this.writeStatus(t, false);
      }
    } catch (err) {
      this.errors.push(String(err));
    } finally {
      this.busy = false;
    }
  }

  /** Pod status as kubelet reports it; other writers' conditions (KruisePodReady) are kept, Ready honours the gates. */
  private async writeStatus(t: Tracked, initial: boolean): Promise<void> {
    const where = { namespace: t.spec.namespace, name: t.spec.name };
    for (let attempt = 0; ; attempt++) {
      const pod = await this.o.rest.find<Obj>(resources.pods, where);
      if (!pod) return;
      const containerStatuses = t.spec.containers.map((c) => {
        const ids = t.ids.get(c.name)!;
        return {
          name: c.name, ready: true, started: true, restartCount: ids.length - 1, image: this.o.image, imageID: this.o.image,
          containerID: `containerd://${ids[ids.length - 1]}`, state: { running: { startedAt: rfc3339(t.startedAtMs.get(c.name)) } },
        };
      });
      const now = rfc3339();
      const kept = (pod.status?.conditions ?? []).filter((c: { type: string }) => !['Ready', 'ContainersReady', 'PodScheduled', 'Initialized'].includes(c.type));
      if (initial && t.spec.readinessGate && !kept.some((c: { type: string }) => c.type === 'KruisePodReady')) {
        kept.push({ type: 'KruisePodReady', status: 'True', lastTransitionTime: now });
      }
      const gatesTrue = (pod.spec?.readinessGates ?? []).every((g: { conditionType: string }) =>
        kept.some((c: { type: string; status?: string }) => c.type === g.conditionType && c.status === 'True'));
      const prev = (type: string) => (pod.status?.conditions ?? []).find((c: { type: string }) => c.type === type);
      const cond = (type: string, ok: boolean) => ({ type, status: ok ? 'True' : 'False',
        lastTransitionTime: prev(type)?.status === (ok ? 'True' : 'False') ? prev(type).lastTransitionTime : now });
      const status = {
        ...pod.status, phase: 'Running', hostIP: '127.0.0.1', podIP: '127.0.0.1', startTime: pod.status?.startTime ?? now,
        conditions: [cond('PodScheduled', true), cond('Initialized', true), cond('ContainersReady', true), cond('Ready', gatesTrue), ...kept],
        containerStatuses,
      };
      try {
        await this.o.rest.replace(resources.pods, { ...pod, status }, { subresource: 'status' });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt > 10) throw err;
      }
    }
  }
}
