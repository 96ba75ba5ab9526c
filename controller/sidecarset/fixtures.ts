// Test fixtures: SidecarSets defaulted and hashed as the SidecarSet webhook does, pods injected by the shared
// injection code, and a few lines of kubelet (status from spec) so tests run the controller's cores end to end.
import { createHash } from 'node:crypto';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarContainer, SidecarSet, SidecarSetUpdateStrategy } from '../../shared/api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../../shared/api/sidecarset.js';
import { injectSidecars } from '../../shared/domain/inject/index.js';
import { defaultSidecarSet } from '../../shared/domain/sidecarset-defaults.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from '../../shared/domain/sidecarset-hash.js';

export const NOW = new Date('2026-01-02T03:04:05.678Z');
export const NOW_TEXT = '2026-01-02T03:04:05Z';

/** A defaulted SidecarSet selecting app=web, with the webhook's hash annotations. */
export function makeSet(o: { name?: string; image?: string; hot?: boolean; strategy?: SidecarSetUpdateStrategy; containers?: SidecarContainer[];
  initContainers?: SidecarContainer[]; rv?: string } = {}): SidecarSet {
  const container: SidecarContainer = { name: 'sidecar', image: o.image ?? 'busybox:1.0', command: ['sleep', '1d'] };
  if (o.hot) container.upgradeStrategy = { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1.0' };
  const set = defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name: o.name ?? 'scs', uid: 'uid-scs', generation: 1, resourceVersion: o.rv ?? '100' },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: o.containers ?? [container], updateStrategy: o.strategy ?? {},
      ...(o.initContainers && { initContainers: o.initContainers }) },
  });
  return rehash(set);
}

/** The SidecarSet with its hash annotations recomputed, as after a webhook-admitted edit. */
export function rehash(set: SidecarSet): SidecarSet {
  const annotations = { ...set.metadata?.annotations, [SidecarSetHashAnnotation]: sidecarSetHash(set), [SidecarSetHashWithoutImageAnnotation]: sidecarSetHashWithoutImage(set) };
  return { ...set, metadata: { ...set.metadata, annotations } };
}

/** `set` with its sidecar image(s) changed. */
export function withImage(set: SidecarSet, image: string): SidecarSet {
  const spec = structuredClone(set.spec!);
  for (const c of spec.containers ?? []) c.image = image;
  return rehash({ ...set, spec, metadata: { ...set.metadata, generation: (set.metadata?.generation ?? 1) + 1 } });
}

const digest = (image: string) => createHash('sha256').update(image).digest('hex');

/** A pod labelled app=web created through injection of `sets`, scheduled to node `n1`, not yet started. */
export function makePod(name: string, sets: SidecarSet[], labels: Record<string, string> = {}): Pod {
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1', labels: { app: 'web', ...labels }, creationTimestamp: '2026-01-01T00:00:00Z' as unknown as Date },
    spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx:1.0' }] },
  };
  return injectSidecars(pod, {
    operation: 'CREATE', sidecarSets: sets, namespaceLabels: () => ({}), now: NOW, random: () => 0,
    revisions: { byName: () => undefined, byCustomVersion: () => [] },
  });
}

/**
 * Kubelet: every container whose status image differs from its spec image (or has no status) is (re)started with
 * the spec image: new imageID, restartCount + 1 when it ran before. `ready` sets readiness of all containers. Spec
 * resources are reported in the status (1.33+) unless `resize` holds them back: 'pending' (not applied yet) or
 * 'infeasible' (PodResizePending/Infeasible), where the status keeps the resources it had.
 */
export function kubelet(pod: Pod, o: { ready?: boolean; readyExcept?: string[]; resize?: 'pending' | 'infeasible'; nativeDown?: string[] } = {}): Pod {
  const out = structuredClone(pod);
  const before = new Map([...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].map((s) => [s.name, s]));
  const ready = o.ready ?? true;
  const status = (c: NonNullable<Pod['spec']>['containers'][number]) => {
    const old = before.get(c.name);
    const restarted = old !== undefined && old.image !== c.image;
    const image = c.image ?? '';
    return {
      name: c.name, image, imageID: restarted || !old ? `docker.io/library/${image}@sha256:${digest(image)}` : old.imageID,
      ready: ready && !(o.readyExcept ?? []).includes(c.name), restartCount: (old?.restartCount ?? 0) + (restarted ? 1 : 0),
      ...(c.resources && { resources: o.resize && old?.resources ? old.resources : structuredClone(c.resources) }),
    };
  };
  // Native sidecars (restartPolicy Always) run next to the containers; `nativeDown` ones are restarting (waiting).
  const natives = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => {
    const down = (o.nativeDown ?? []).includes(c.name);
    return { ...status(c), ...(down ? { ready: false, started: false, state: { waiting: { reason: 'ContainerCreating' } } } : { started: true, state: { running: { startedAt: '2026-01-01T00:01:00Z' } } }) };
  });
  out.status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:01:00Z' as unknown as Date },
      ...(o.resize === 'infeasible' ? [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible', message: 'Node didn\'t have enough capacity: cpu, requested: 64000, capacity: 2000' }] : [])],
    containerStatuses: (pod.spec?.containers ?? []).map(status),
    ...(natives.length > 0 && { initContainerStatuses: natives as never }),
  };
  return out;
}

export const image = (pod: Pod, container: string) => pod.spec?.containers?.find((c) => c.name === container)?.image;
