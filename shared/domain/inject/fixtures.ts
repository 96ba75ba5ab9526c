// Test fixtures modelled on upstream's sidecarset_test.go (sidecarSet1, sidecarSet3, pod1), written afresh.
import type { ControllerRevisionLike } from '../../api/controller-revision.js';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { SidecarSetCustomVersionLabel, SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetNameLabel } from '../../api/sidecarset.js';
import type { InjectionContext } from './context.js';
import { seededRandom } from '../../testing/random.js';

export const NOW = new Date('2026-01-02T03:04:05.678Z');
export const NOW_TEXT = '2026-01-02T03:04:05Z';


export function makeCtx(sidecarSets: SidecarSet[], over: Partial<InjectionContext> & { namespaces?: Record<string, Record<string, string>>; revisionList?: ControllerRevisionLike[] } = {}): InjectionContext {
  const namespaces = over.namespaces ?? { default: { 'kubernetes.io/metadata.name': 'default' } };
  const revs = over.revisionList ?? [];
  return {
    operation: 'CREATE',
    sidecarSets,
    namespaceLabels: (n) => namespaces[n],
    revisions: {
      byName: (n) => revs.find((r) => r.metadata.name === n),
      byCustomVersion: (s, v) => revs.filter((r) => r.metadata.labels?.[SidecarSetNameLabel] === s && r.metadata.labels?.[SidecarSetCustomVersionLabel] === v),
    },
    now: NOW,
    random: seededRandom(),
    ...over,
  };
}

export function sidecarSet1(): SidecarSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'sidecarset1', annotations: { [SidecarSetHashAnnotation]: 'c4k2dbb95d', [SidecarSetHashWithoutImageAnnotation]: 'gm967682cm' } },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      initContainers: [
        { name: 'init-2', image: 'busybox:1.0', podInjectPolicy: 'AfterAppContainer' },
        { name: 'init-1', image: 'busybox:1.0', podInjectPolicy: 'AfterAppContainer' },
      ],
      containers: [
        {
          name: 'dns-f', image: 'dns-f-image:1.0', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'disabled' },
          upgradeStrategy: { upgradeType: 'ColdUpgrade' }, volumeMounts: [{ name: 'volume-1', mountPath: '/a/b/c' }],
        },
        { name: 'log-agent', image: 'log-agent-image:1.0', podInjectPolicy: 'AfterAppContainer', shareVolumePolicy: { type: 'disabled' } },
      ],
      volumes: [{ name: 'volume-1', emptyDir: {} }, { name: 'volume-2', emptyDir: {} }],
    },
    status: { matchedPods: 0, updatedPods: 0, readyPods: 0 },
  };
}

/** Shares the app containers' volumes (upstream sidecarSet3). */
export function sidecarSet3(): SidecarSet {
  return {
    metadata: { name: 'sidecarset3', annotations: { [SidecarSetHashAnnotation]: 'gm967682cm', [SidecarSetHashWithoutImageAnnotation]: 'c4k2dbb95d' } },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      containers: [
        {
          name: 'cold-sidecar', image: 'cold-image:1.0', podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'enabled' },
          volumeMounts: [{ name: 'volume-a', mountPath: '/a/b' }],
        },
      ],
      volumes: [{ name: 'volume-a', emptyDir: {} }],
    },
  };
}

export function pod1(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'test-pod-1', namespace: 'default', labels: { app: 'nginx' }, annotations: {} },
    spec: {
      initContainers: [{ name: 'init-0', image: 'busybox:1.0' }],
      containers: [
        {
          name: 'nginx', image: 'nginx:1.15.1',
          env: [{ name: 'hello1', value: 'world1' }, { name: 'hello2', value: 'world2' }],
          volumeMounts: [{ name: 'volume-a', mountPath: '/a/b' }, { name: 'volume-b', mountPath: '/e/f' }],
        },
      ],
      volumes: [{ name: 'volume-a', emptyDir: {} }, { name: 'volume-b', emptyDir: {} }],
    },
  };
}

export const names = (cs: { name: string }[] | undefined) => (cs ?? []).map((c) => c.name);
export const envOf = (pod: Pod, container: string, init = false) =>
  (init ? pod.spec?.initContainers : pod.spec?.containers)?.find((c) => c.name === container)?.env ?? [];

