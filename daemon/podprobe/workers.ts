// Spec sync (spec §6.2): one worker per (pod namespace, name, uid, IP, container, probe) of this node's NodePodProbe,
// started, updated and stopped as the spec changes. The desired set is computed purely; this class applies it.
import { isDeepStrictEqual } from 'node:util';
import type { V1Probe } from '@kubernetes/client-node';
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { probeKeyString, type ProbeKey } from './results.js';
import { ProbeWorker, type WorkerDeps } from './worker.js';

export interface DesiredProbe {
  key: ProbeKey;
  probe: V1Probe;
}

/** Every probe of every pod entry, keyed as workers are (a later duplicate of a key wins, as in upstream's loop). */
export function desiredProbes(npp: NodePodProbe): Map<string, DesiredProbe> {
  const out = new Map<string, DesiredProbe>();
  for (const pod of npp.spec?.podProbes ?? []) {
    for (const p of pod.probes ?? []) {
      const key: ProbeKey = { podNs: pod.namespace, podName: pod.name, podUid: pod.uid, podIP: pod.IP ?? '', containerName: p.containerName, probeName: p.name };
      out.set(probeKeyString(key), { key, probe: p.probe ?? {} });
    }
  }
  return out;
}

export interface SyncChanges {
  started: number;
  updated: number;
  stopped: number;
}

export class ProbeWorkers {
  private readonly workers = new Map<string, { worker: ProbeWorker; done: Promise<void> }>();

  constructor(private readonly deps: WorkerDeps) {}

  /** Applies `npp`'s spec: new keys get a started worker, changed probes a new spec, vanished keys a stop. */
  sync(npp: NodePodProbe): SyncChanges {
    const desired = desiredProbes(npp);
    const changes: SyncChanges = { started: 0, updated: 0, stopped: 0 };
    for (const [id, d] of desired) {
      const running = this.workers.get(id);
      if (running) {
        if (!isDeepStrictEqual(running.worker.spec, d.probe)) {
          running.worker.updateSpec(d.probe);
          changes.updated++;
        }
        continue;
      }
      const worker = new ProbeWorker(this.deps, d.key, d.probe);
      this.workers.set(id, { worker, done: worker.run() });
      changes.started++;
    }
    for (const [id, { worker }] of this.workers) {
      if (desired.has(id)) continue;
      worker.stop();
      this.workers.delete(id);
      changes.stopped++;
    }
    return changes;
  }

  get size(): number {
    return this.workers.size;
  }

  keys(): string[] {
    return [...this.workers.keys()];
  }

  specOf(id: string): V1Probe | undefined {
    return this.workers.get(id)?.worker.spec;
  }

  /** Stops every worker and resolves when their loops have ended (an in-flight probe ends within its timeout). */
  async stopAll(): Promise<void> {
    const loops = [...this.workers.values()];
    this.workers.clear();
    for (const { worker } of loops) worker.stop();
    await Promise.allSettled(loops.map((l) => l.done));
  }
}
