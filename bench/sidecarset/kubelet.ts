// Kubelet for thousands of kwok pods during a rollout: kwok renders a pod's status once and ignores later image
// changes, so this watches the pods and, like kubelet, restarts a container (or native sidecar) whose spec image
// changed (new imageID, restartCount + 1) and reports the pod ready again once its readiness gates are True. Pods are handled by name from
// the latest event seen, so an event that arrives while the pod's previous patch is in flight is not lost. Until
// `acting` is set it only watches: kwok renders the first status, and the bench reads from here when pods were seen
// ready.
import { createHash } from 'node:crypto';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { silentLogger } from '../../shared/log.js';
import { startInformer } from '../../shared/kube/informer.js';
import { restListWatch } from '../../shared/kube/list-watch.js';
import { listAllPages } from '../../shared/kube/informer-factory.js';
import type { Pod } from '../../shared/api/meta.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { allocationDrift, allocationOf } from './kubelet-resize.js';

type Status = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

const isReady = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
/** Kubelet's Ready also waits for every readiness gate's condition (CloneSet pods: KruisePodReady, InPlaceUpdateReady). */
const gatesTrue = (pod: Pod) => (pod.spec?.readinessGates ?? [])
  .every((g) => pod.status?.conditions?.some((c) => c.type === g.conditionType && c.status === 'True'));
const changedContainers = (pod: Pod) => {
  const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s.image]));
  return pod.spec!.containers.filter((c) => statuses.get(c.name) !== c.image).map((c) => c.name);
};
/** Native sidecars (init containers with restartPolicy Always): kubelet runs them next to the containers. */
const nativesOf = (pod: Pod) => (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
/** Native sidecars not running their spec image (a new image, or kwok's rendering of them as completed). */
const changedNatives = (pod: Pod) => {
  const statuses = new Map((pod.status?.initContainerStatuses ?? []).map((s) => [s.name, s]));
  return nativesOf(pod).filter((c) => statuses.get(c.name)?.image !== c.image || !statuses.get(c.name)?.state?.running).map((c) => c.name);
};

export class BenchKubelet {
  private readonly latest = new Map<string, Pod>();
  private readonly dirty = new Set<string>();
  private readonly busy = new Set<string>();
  private readonly unavailable = new Set<string>();
  private running = 0;
  private abort?: AbortController;
  /** Most pods seen unavailable (a spec image not running yet, or not ready) at once. */
  peakUnavailable = 0;
  patches = 0;
  /** Whether to write pod status (else only watch). */
  private acting = false;
  /** When this watch last saw a pod become available (ms since the epoch). */
  lastAvailableAt = 0;
  /**
   * Report each running container's allocated resources and answer pods/resize by writing the new allocation, as a
   * kubelet with in-place resize does (kubelet-resize.ts). Off: kwok's status as it is, which the apiserver reads as
   * a node without resize support.
   */
  resize = false;
  /** Status writes that reported a resized allocation (no restart). */
  resizes = 0;

  constructor(private readonly kc: KubeConfig, private readonly rest: KubeRest, private readonly namespace: string, private readonly concurrency = 32) {}

  /** Watches the namespace's pods through the shared informer (restarts, relists and 410s handled there). */
  async start(): Promise<void> {
    this.abort = new AbortController();
    const cache = startInformer<Pod>(restListWatch<Pod & KubernetesObject>(this.rest, resources.pods, { namespace: this.namespace },
      { list: () => listAllPages<Pod & KubernetesObject>(this.rest, resources.pods, { namespace: this.namespace }) }),
    this.abort.signal, { log: silentLogger() });
    cache.onChange((pod, verb) => {
      if (verb !== 'delete') return this.seen(pod);
      const name = pod.metadata?.name ?? '';
      this.latest.delete(name);
      this.unavailable.delete(name);
      this.dirty.delete(name);
    });
    await cache.synced;
  }

  stop(): void {
    this.abort?.abort();
  }

  private seen(pod: Pod): void {
    const name = pod.metadata?.name ?? '';
    // An event older than what we hold (our own writes included) would make us redo work; resourceVersions are etcd
    // revisions here, so they compare as numbers.
    if (Number(pod.metadata?.resourceVersion) < Number(this.latest.get(name)?.metadata?.resourceVersion ?? 0)) return;
    if ((pod.status?.containerStatuses ?? []).length === 0) return; // kwok has not started it yet
    const changed = changedContainers(pod).length > 0 || changedNatives(pod).length > 0;
    const down = changed || !isReady(pod) || !gatesTrue(pod);
    if (down) this.unavailable.add(name);
    else if (this.unavailable.delete(name) || !this.latest.has(name)) this.lastAvailableAt = Date.now();
    this.peakUnavailable = Math.max(this.peakUnavailable, this.unavailable.size);
    this.latest.set(name, pod);
    if (changed || isReady(pod) !== gatesTrue(pod) || (this.resize && allocationDrift(pod))) {
      this.dirty.add(name);
      this.pump();
    }
  }

  /** Pods seen with a status. */
  get podsSeen(): number {
    return this.latest.size;
  }

  /** Pods seen with a status that are not running their spec images or not ready. */
  get unavailableNow(): number {
    return this.unavailable.size;
  }

  /** Starts writing status, catching up on the pods that were left waiting while watching only. */
  startActing(): void {
    this.acting = true;
    for (const name of this.unavailable) this.dirty.add(name);
    this.pump();
  }

  private pump(): void {
    if (!this.acting) return;
    for (const name of this.dirty) {
      if (this.running >= this.concurrency) return;
      if (this.busy.has(name)) continue;
      this.dirty.delete(name);
      this.busy.add(name);
      this.running++;
      void this.act(this.latest.get(name)!).finally(() => {
        this.running--;
        this.busy.delete(name);
        this.pump();
      });
    }
  }

  /**
   * Restarts the changed containers and reports the pod's readiness in one status write, as kubelet does for
   * containers without a readiness probe (the bench's have none): new image and imageID, restartCount + 1, running
   * since now; Ready once every readiness gate is True too (a gate turning True later brings the pod back here).
   */
  private async act(pod: Pod): Promise<void> {
    const changed = changedContainers(pod);
    const natives = changedNatives(pod);
    const drift = this.resize && allocationDrift(pod);
    const ready = gatesTrue(pod);
    if (changed.length === 0 && natives.length === 0 && isReady(pod) === ready && !drift) return;
    const t = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const before = new Map([...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].map((s) => [s.name, s]));
    const restart = (c: NonNullable<Pod['spec']>['containers'][number], restarted: boolean): Status => {
      const old = { ...before.get(c.name), name: c.name, ...(this.resize && allocationOf(c)) } as Status;
      if (!restarted) return { ...old, ready: true };
      const image = c.image ?? '';
      // kwok renders a native sidecar as a completed init container: running it is a start, not a restart.
      const restarts = (old.restartCount ?? 0) + (old.image && old.image !== image ? 1 : 0);
      return { ...old, image, imageID: `docker.io/library/${image.split(':')[0]}@sha256:${createHash('sha256').update(image).digest('hex')}`,
        restartCount: restarts, ready: true, started: true, state: { running: { startedAt: t } } } as unknown as Status;
    };
    const statuses = pod.spec!.containers.map((c) => restart(c, changed.includes(c.name)));
    const initStatuses = nativesOf(pod).length === 0 ? undefined : nativesOf(pod).map((c) => restart(c, natives.includes(c.name)));
    const conditions = isReady(pod) === ready ? undefined
      : [{ type: 'ContainersReady', status: 'True', lastTransitionTime: t }, { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: t }];
    const status = { ...(conditions && { conditions }), containerStatuses: statuses, ...(initStatuses && { initContainerStatuses: initStatuses }) };
    this.patches++;
    if (drift && changed.length === 0 && natives.length === 0 &&
      [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].some((s) => s.resources)) this.resizes++;
    try {
      const written = await this.rest.patch<Pod>(resources.pods, { namespace: this.namespace, name: pod.metadata!.name!, subresource: 'status' }, 'strategic', { status });
      this.seen(written);
    } catch {
      // A pod that is gone; anything else comes back with the next event.
    }
  }
}
