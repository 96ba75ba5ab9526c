// A CloneSet controller over the fake apiserver for tests: seed a CloneSet, drain the queue, and play kubelet
// (every pod Running, containers on their spec image, missing gate conditions True, Ready = all gates True).
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import { defaultCloneSet } from '../../shared/domain/cloneset/defaults.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps, type RecordedEvent } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { cloneSetController } from './controller.js';

export function webCloneSet(edit: (cs: CloneSet) => void = () => {}): CloneSet {
  const cs = defaultCloneSet({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'default', uid: 'cs-uid', generation: 1 }, spec: {
    replicas: 3, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }], readinessGates: [{ conditionType: 'KruisePodReady' }] } } } });
  edit(cs);
  return cs;
}

export class CloneSetHarness {
  readonly cluster = new FakeCluster();
  readonly queue = new RecordingQueue();
  readonly events: RecordedEvent[];
  private readonly reconcile: (key: string) => Promise<{ requeueAfterMs?: number } | void>;

  constructor(cs: CloneSet) {
    this.cluster.seed(resources.cloneSets, cs);
    const f = fakeDeps(this.cluster);
    this.events = f.events;
    const fn = cloneSetController.setup(f.deps, this.queue);
    this.reconcile = (key) => fn(key, f.ctx);
    this.queue.add('default/web');
  }

  pods(): Pod[] {
    return this.cluster.informers.cache<Pod>(resources.pods).list().filter((p) => !p.metadata?.deletionTimestamp);
  }

  cloneSet(): CloneSet {
    return this.cluster.get<CloneSet>(resources.cloneSets, 'web', 'default')!;
  }

  async editCloneSet(edit: (cs: CloneSet) => void): Promise<void> {
    const cs = this.cloneSet();
    edit(cs);
    await this.cluster.rest.replace(resources.cloneSets, cs);
  }

  async editPod(name: string, edit: (p: Pod) => void): Promise<void> {
    const p = structuredClone(this.cluster.get<Pod>(resources.pods, name, 'default')!);
    edit(p);
    await this.cluster.rest.replace(resources.pods, p);
  }

  async runPods(): Promise<void> {
    for (const p of this.pods()) await this.cluster.rest.replace(resources.pods, kubeletRan(p));
  }

  async settle(rounds = 6): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      await this.queue.drain(this.reconcile);
      await this.runPods();
      this.queue.add('default/web');
    }
    await this.queue.drain(this.reconcile);
  }
}

export const state = (p: Pod | undefined) => p?.metadata?.labels?.['lifecycle.apps.kruise.io/state'];
export const condition = (p: Pod | undefined, type: string) => p?.status?.conditions?.find((c) => c.type === type);

/**
 * What the scheduler and kubelet make of `p`: bound to a node, Running, containers ready on their spec image (restart
 * counted on a change), Ready = all gates True.
 */
export function kubeletRan(p: Pod): Pod {
  const pod = structuredClone(p);
  pod.spec!.nodeName ||= 'node-1';
  const gates = (pod.spec?.readinessGates ?? []).map((g) => g.conditionType);
  const conds = (pod.status?.conditions ?? []).filter((c) => c.type !== 'Ready' && c.type !== 'ContainersReady');
  for (const g of gates) if (!conds.some((c) => c.type === g)) conds.push({ type: g, status: 'True' });
  const ready = gates.every((g) => conds.find((c) => c.type === g)?.status === 'True');
  const old = pod.status?.containerStatuses ?? [];
  pod.status = {
    ...pod.status, phase: 'Running',
    conditions: [...conds, { type: 'ContainersReady', status: 'True' }, { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date(0) as never }],
    containerStatuses: pod.spec!.containers.map((c) => {
      const prev = old.find((s) => s.name === c.name);
      const same = prev?.image === c.image;
      return { name: c.name, image: c.image!, imageID: same ? prev!.imageID : `id-${c.image}`, ready: true, restartCount: (prev?.restartCount ?? 0) + (prev && !same ? 1 : 0) } as never;
    }),
  };
  return pod;
}
