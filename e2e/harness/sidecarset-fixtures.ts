// SidecarSets and stand-in pods for the SidecarSet controller e2e tests, written through the real apiserver (so the
// webhook defaults, hashes and injects), plus the waits those tests share.
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet, SidecarSetUpdateStrategy } from '../../shared/api/sidecarset.js';
import { apiVersionOf, resources, type Resource } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { kubectl, untilInjected } from './kube.js';

export const sidecarImage = (pod: Pod, name = 'sidecar') => pod.spec?.containers?.find((c) => c.name === name)?.image;

export async function waitUntil<T>(what: string, f: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try { const v = await f(); if (v) return v; } catch (err) { last = err; }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** SidecarSets as v1.8 clients read and write them (served next to v1beta1, converted by the webhook's /convert). */
export const sidecarSetsV1alpha1: Resource = { ...resources.sidecarSets, version: 'v1alpha1' };

export class SidecarSets {
  constructor(private readonly rest: KubeRest, private readonly namespace: string, private readonly node: string) {}

  /**
   * A SidecarSet injecting container `sidecar` (image `image`) into pods labelled app=`app`. Resolves once the webhook
   * injects it: the webhook reads SidecarSets from its informer, so a pod created right after the SidecarSet can be
   * admitted before the cache has it and go without the sidecar (OpenKruise's webhook has the same window).
   */
  async create(name: string, app: string, image: string, updateStrategy: SidecarSetUpdateStrategy = {}, extra: Record<string, unknown> = {}): Promise<SidecarSet> {
    const set = await this.rest.create<SidecarSet>(resources.sidecarSets, {
      apiVersion: apiVersionOf(resources.sidecarSets), kind: 'SidecarSet', metadata: { name },
      spec: { selector: { matchLabels: { app } }, containers: [{ name: 'sidecar', image, command: ['sleep', '1d'] }], updateStrategy, ...extra },
    });
    await this.injects({ app }, 'sidecar', image);
    return set;
  }

  /** Waits until a pod labelled `labels` in this namespace would be created with `container` at `image`. */
  async injects(labels: Record<string, string>, container: string, image: string): Promise<void> {
    await untilInjected(this.namespace, labels, container, image);
  }

  get(name: string): Promise<SidecarSet> {
    return this.rest.get<SidecarSet>(resources.sidecarSets, { name });
  }

  /** A merge patch, in v1beta1 unless `resource` says v1alpha1 (sidecarSetsV1alpha1). */
  patch(name: string, body: object, resource: Resource = resources.sidecarSets): Promise<SidecarSet> {
    return this.rest.patch<SidecarSet>(resource, { name }, 'merge', body);
  }

  /** Sets the sidecar image (JSON patch on containers[0], as the seed's kubectl example does). */
  setImage(name: string, image: string): Promise<SidecarSet> {
    return this.rest.patch<SidecarSet>(resources.sidecarSets, { name }, 'json', [{ op: 'replace', path: '/spec/containers/0/image', value: image }]);
  }

  /** Pods `<prefix>-0..n-1` labelled app=`app` on the stand-in node, created through the injecting webhook. */
  async pods(prefix: string, n: number, labels: Record<string, string>): Promise<Pod[]> {
    const out: Pod[] = [];
    for (let i = 0; i < n; i++) {
      out.push(await this.rest.create<Pod>(resources.pods, {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: `${prefix}-${i}`, namespace: this.namespace, labels },
        spec: { nodeName: this.node, containers: [{ name: 'app', image: 'nginx:1.7.9' }], terminationGracePeriodSeconds: 0 },
      }));
    }
    return out;
  }

  /** Waits for status to reach `want` for the SidecarSet's current generation. */
  status(name: string, want: Partial<Record<'matchedPods' | 'updatedPods' | 'readyPods' | 'updatedReadyPods', number>>, timeoutMs = 90_000): Promise<SidecarSet> {
    let seen = 'never read';
    return waitUntil(`${name} status ${JSON.stringify(want)}`, async () => {
      const s = await this.get(name);
      const st = (s.status ?? {}) as unknown as Record<string, number>;
      seen = `generation ${s.metadata?.generation}, status ${JSON.stringify(s.status ?? {})}`;
      return s.status?.observedGeneration === s.metadata?.generation && Object.entries(want).every(([k, v]) => st[k] === v) && s;
    }, timeoutMs).catch((err: Error) => {
      // What the status was at the deadline tells a stalled controller from pods that never became ready.
      throw new Error(`${err.message}; last seen: ${seen}`);
    });
  }

  async delete(...names: string[]): Promise<void> {
    for (const name of names) await this.rest.delete(resources.sidecarSets, { name });
  }

  /** Pods on a node without kubelet never finish graceful deletion: force them. */
  forceDeletePods(...names: string[]): void {
    kubectl(['delete', 'pod', '-n', this.namespace, ...(names.length ? names : ['--all']), '--grace-period=0', '--force', '--ignore-not-found', '--wait=false']);
  }
}
