// What OpenKruise v1.8.4 or v1.9.0 has stored in a cluster when its manager goes away, written by hand for
// e2e/takeover.e2e.test.ts: SidecarSets as its webhook leaves them (defaults, both hash annotations), their
// ControllerRevisions and status as its controller writes them, pods as its pod webhook injects them, an ImagePullJob
// that has completed and the NodeImage it pulled on. Every computed value (hashes, revision data and name, the
// injected containers, env and annotations) comes from the project's own functions, which reproduce upstream's
// byte for byte (spec/webhooks.md §1.5, §2; spec/daemon-and-controllers.md §2, §3, §6.8), not from typed-in strings.
import type { V1ControllerRevision } from '@kubernetes/client-node';
import { candidateRevision } from '../../controller/sidecarset/revision-history.js';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import { KRUISE_API_VERSION, KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { SidecarSetCustomVersionLabel, type SidecarSet } from '../../shared/api/sidecarset.js';
import { NamespaceNameLabel } from '../../shared/api/v1beta1/sidecarset.js';
import { internalSidecarSet } from '../../shared/domain/conversion/sidecarset.js';
import { mutatePodOnCreate } from '../../shared/domain/pod-mutation.js';
import { defaultSidecarSet } from '../../shared/domain/sidecarset-defaults.js';
import { defaultImagePullJob } from '../../shared/domain/validation/image-pull-job.js';
import { defaultNodeImage } from '../../shared/domain/validation/node-image.js';
import { seededRandom } from '../../shared/testing/random.js';

export interface Era {
  release: 'v1.8.4' | 'v1.9.0';
  /** Prefix of every object name, so the two eras never share one. */
  prefix: 'v18' | 'v19';
  /** The namespace of the pods and the ImagePullJob. */
  namespace: string;
  /** The version OpenKruise writes SidecarSets, NodeImages and ImagePullJobs in. */
  apiVersion: typeof KRUISE_API_VERSION | typeof KRUISE_API_VERSION_V1BETA1;
}

export const V18: Era = { release: 'v1.8.4', prefix: 'v18', namespace: 'e2e-takeover-v18', apiVersion: KRUISE_API_VERSION };
export const V19: Era = { release: 'v1.9.0', prefix: 'v19', namespace: 'e2e-takeover-v19', apiVersion: KRUISE_API_VERSION_V1BETA1 };

/** Where OpenKruise keeps ControllerRevisions, and where its daemon reads pull secrets. */
export const MANAGER_NS = 'kruise-system';
export const DAEMON_CONFIG_NS = 'kruise-daemon-config';
export const SIDECAR_IMAGE = 'busybox:1.35.0';
export const APP_IMAGE = 'nginx:1.7.9';
export const PULL_SECRET = 'takeover-regcred';

/** metav1.Time: RFC3339 at second precision. */
export const metaTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export type SetKind = 'plain' | 'ns' | 'cv';
export const SET_KINDS: readonly SetKind[] = ['plain', 'ns', 'cv'];
export const setName = (era: Era, kind: SetKind) => `${era.prefix}-${kind}`;
/** Pods of SidecarSet `kind` are labelled app=<this>. */
export const appLabel = setName;
export const customVersion = (era: Era) => (era === V18 ? 'v1' : 'v2');

/**
 * The era's three SidecarSets as its webhook stored them: `plain` (env, a volume, transferEnv), `ns` limited to the
 * pods' namespace (v1.8: `spec.namespace`; v1.9: the namespaceSelector v1.9 converts it to) and `cv` with a custom
 * version (v1.8: the label; v1.9: `spec.customVersion`).
 */
export function sidecarSet(era: Era, kind: SetKind): SidecarSet {
  const name = setName(era, kind);
  const spec: Record<string, unknown> = {
    selector: { matchLabels: { app: appLabel(era, kind) } },
    containers: [{
      name: `${kind}-sidecar`, image: SIDECAR_IMAGE, command: ['sleep', '999d'],
      env: [{ name: 'SIDECAR_OF', value: name }],
      volumeMounts: [{ name: `${kind}-data`, mountPath: '/data' }],
      transferEnv: [{ sourceContainerName: 'app', envName: 'TZ' }],
    }],
    volumes: [{ name: `${kind}-data`, emptyDir: {} }],
    updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
  };
  const metadata: SidecarSet['metadata'] = { name };
  if (kind === 'ns') {
    if (era === V18) spec.namespace = era.namespace;
    else spec.namespaceSelector = { matchLabels: { [NamespaceNameLabel]: era.namespace } };
  }
  if (kind === 'cv') {
    if (era === V18) metadata.labels = { [SidecarSetCustomVersionLabel]: customVersion(era) };
    else spec.customVersion = customVersion(era);
  }
  return defaultSidecarSet({ apiVersion: era.apiVersion, kind: 'SidecarSet', metadata, spec } as SidecarSet);
}

/**
 * The revision the era's controller recorded for `live` (the stored SidecarSet, with its uid), revision 1, no
 * collision. v1.9's controller works on v1beta1 objects: its owner reference says v1beta1, and the custom-version
 * label comes from `spec.customVersion` (the v1alpha1 form carries it as that label, so the result is the same).
 */
export function controllerRevision(era: Era, live: SidecarSet): V1ControllerRevision {
  const rev = candidateRevision(internalSidecarSet(live), MANAGER_NS, 1, 0).revision;
  for (const o of rev.metadata?.ownerReferences ?? []) o.apiVersion = era.apiVersion;
  return rev;
}

/** The status the era's controller wrote once `pods` pods were injected with this revision and Ready. */
export function sidecarSetStatus(live: SidecarSet, revisionName: string, pods: number) {
  return {
    observedGeneration: live.metadata?.generation ?? 1, matchedPods: pods, updatedPods: pods, readyPods: pods,
    updatedReadyPods: pods, latestRevision: revisionName, collisionCount: 0,
  };
}

/**
 * Pod `name` of SidecarSet `kind` on `node`, as the era's pod webhook admitted it: `sets` are the stored SidecarSets
 * with the status their controller wrote (the pod's hash annotation names the latest revision).
 */
export function injectedPod(era: Era, kind: SetKind, name: string, node: string, sets: readonly SidecarSet[], now: Date): Pod {
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: era.namespace, labels: { app: appLabel(era, kind) } },
    spec: { nodeName: node, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: APP_IMAGE, env: [{ name: 'TZ', value: 'UTC' }] }] },
  } as Pod;
  return mutatePodOnCreate(pod, {
    operation: 'CREATE', requestNamespace: era.namespace, sidecarSets: sets.map(internalSidecarSet),
    namespaceLabels: (n) => (n === era.namespace ? { [NamespaceNameLabel]: n } : undefined),
    revisions: { byName: () => undefined, byCustomVersion: () => [] },
    now, random: seededRandom(),
  });
}

export const jobName = (era: Era) => `${era.prefix}-prepull-nginx`;

/**
 * An ImagePullJob that pulled nginx:1.7.9 on `node` and completed, as the era's webhook defaulted it (v1.8 adds the
 * deletion-protection finalizer at admission, v1.9's controller on its first reconcile: stored, both have it). A day's
 * TTL, so neither the job nor its NodeImage tag expires during the test.
 */
export function imagePullJob(era: Era, node: string): ImagePullJob {
  const job = defaultImagePullJob({
    apiVersion: era.apiVersion, kind: 'ImagePullJob', metadata: { name: jobName(era), namespace: era.namespace },
    spec: { image: APP_IMAGE, selector: { names: [node] }, parallelism: 1, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 86400 } },
  } as ImagePullJob, 'CREATE', 'v1alpha1');
  return job;
}

export function imagePullJobStatus(started: Date, completed: Date) {
  return { startTime: metaTime(started), completionTime: metaTime(completed), desired: 1, active: 0, succeeded: 1, failed: 0, message: 'job has completed' };
}

/**
 * The NodeImage of `node` (its labels copied, as the NodeImage controller keeps them): nginx:1.7.9 owned by the job
 * and pulled with a pull secret (v1.8: a Secret in kruise-daemon-config; v1.9: a shared copy, `mode: batch`), and
 * busybox:1.35.0 added by hand, whose pull failed.
 */
export function nodeImage(era: Era, node: { name: string; labels: Record<string, string> }, job: { uid: string }, created: Date): NodeImage {
  const policy = { ttlSecondsAfterFinished: 86400 };
  return defaultNodeImage({
    apiVersion: era.apiVersion, kind: 'NodeImage', metadata: { name: node.name, labels: node.labels },
    spec: {
      images: {
        nginx: {
          pullSecrets: [{ namespace: DAEMON_CONFIG_NS, name: PULL_SECRET, ...(era === V19 ? { mode: 'batch' } : {}) }],
          tags: [{ tag: '1.7.9', pullPolicy: { ...policy }, version: 0,
            ownerReferences: [{ apiVersion: era.apiVersion, kind: 'ImagePullJob', namespace: era.namespace, name: jobName(era), uid: job.uid }] }],
        },
        busybox: { tags: [{ tag: '1.35.0', pullPolicy: { ...policy }, version: 1, imagePullPolicy: 'Always' }] },
      },
    },
  } as NodeImage, created);
}

export function nodeImageStatus(era: Era, started: Date, completed: Date) {
  const times = { startTime: metaTime(started), completionTime: metaTime(completed) };
  return {
    desired: 2, pulling: 0, succeeded: 1, failed: 1, ...(era === V19 ? { waiting: 0 } : {}),
    imageStatuses: {
      nginx: { tags: [{ tag: '1.7.9', phase: 'Succeeded', progress: 100, ...times, version: 0, imageID: 'sha256:5f0f6e5e3a0d1b1a9d0e2c4b6a8f7e9d1c3b5a7f9e0d2c4b6a8f1e3d5c7b9a0e' }] },
      busybox: { tags: [{ tag: '1.35.0', phase: 'Failed', ...times, version: 1, message: 'Back-off pulling image "busybox:1.35.0"' }] },
    },
  };
}
