// SidecarSet defaulting as OpenKruise's mutating webhook applies it on CREATE and UPDATE (spec/webhooks.md §1.4):
// strategy defaults, per-container kruise and Kubernetes defaults, volume defaults, then both hash annotations.
import type { SidecarContainer, SidecarSet, SidecarSetSpec } from '../api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation } from '../api/sidecarset.js';
import { GoJsonTypeError, goNormalize } from './go-json.js';
import { defaultImagePullPolicy } from './image-ref.js';
import { canonicalQuantity } from './quantity.js';
import { sidecarContainerSchema, sidecarSetHash, sidecarSetHashWithoutImage } from './sidecarset-hash.js';
import { defaultVolume, type VolumeDefaultOptions } from './volume-defaults.js';

type Json = Record<string, any>;

/**
 * Returns a defaulted copy of `s` (the input is not modified), with `kruise.io/sidecarset-hash` and
 * `kruise.io/sidecarset-hash-without-image` always recomputed.
 *
 * Containers and init containers come back as a Go decode/encode round trip would leave them: upstream decodes the
 * request into typed Go structs and patches with the re-marshalled object, so fields unknown to corev1.Container
 * (k8s 1.32) or kruise's SidecarContainer vanish, zero values under omitempty disappear and `resources`,
 * `upgradeStrategy`, `shareVolumePolicy` are always present. Volumes keep unknown fields (see volume-defaults.ts).
 * Throws GoJsonTypeError / QuantityParseError where Go's decoder would reject the object. `opts` carries the
 * Kubernetes feature gates the volume defaults depend on (volume-defaults.ts).
 */
export function defaultSidecarSet(s: SidecarSet, opts: VolumeDefaultOptions = {}): SidecarSet {
  const out = structuredClone(s) as SidecarSet;
  const spec: SidecarSetSpec = (out.spec ??= {});

  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  strategy.maxUnavailable ??= 1;
  strategy.partition ??= 0;

  if (list(spec, 'initContainers')) spec.initContainers = spec.initContainers!.map((c) => defaultSidecarContainer(c, 'AfterAppContainer'));
  if (list(spec, 'containers')) spec.containers = spec.containers!.map((c) => defaultSidecarContainer(c, 'BeforeAppContainer'));
  if (list(spec, 'volumes')) spec.volumes = spec.volumes!.map((v) => defaultVolume(v as Json, opts) as typeof v);
  spec.revisionHistoryLimit ??= 10;
  if (list(spec, 'patchPodMetadata')) {
    // A null entry decodes to a zero struct in Go, which then gets the default too.
    spec.patchPodMetadata = spec.patchPodMetadata!.map((p) => ({ ...p, patchPolicy: p?.patchPolicy || 'Retain' }));
  }
  const revision = spec.injectionStrategy?.revision;
  if (revision && !revision.policy) revision.policy = 'Always';

  out.metadata ??= {};
  out.metadata.annotations = {
    ...out.metadata.annotations,
    [SidecarSetHashAnnotation]: sidecarSetHash(out),
    [SidecarSetHashWithoutImageAnnotation]: sidecarSetHashWithoutImage(out),
  };
  return out;
}

/** Whether spec[key] is a list to default; anything else but null is what Go's decoder would refuse. */
function list(spec: SidecarSetSpec, key: 'initContainers' | 'containers' | 'volumes' | 'patchPodMetadata'): boolean {
  const value = spec[key];
  if (value === undefined || value === null) return false;
  if (!Array.isArray(value)) throw new GoJsonTypeError(`spec.${key}`, '[]', value);
  return true;
}

function defaultSidecarContainer(input: SidecarContainer, injectPolicy: 'AfterAppContainer' | 'BeforeAppContainer'): SidecarContainer {
  const c = (input ?? {}) as Json;
  if (!c.podInjectPolicy) c.podInjectPolicy = injectPolicy;
  c.upgradeStrategy ??= {};
  if (!c.upgradeStrategy.upgradeType) c.upgradeStrategy.upgradeType = 'ColdUpgrade';
  c.shareVolumePolicy ??= {};
  if (!c.shareVolumePolicy.type) c.shareVolumePolicy.type = 'disabled';

  if (!c.imagePullPolicy) c.imagePullPolicy = defaultImagePullPolicy(typeof c.image === 'string' ? c.image : '');
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const port of c.ports ?? []) if (port && !port.protocol) port.protocol = 'TCP';
  for (const t of c.transferEnv ?? []) defaultFieldRef(t?.sourceContainerNameFrom?.fieldRef);
  for (const e of c.env ?? []) defaultFieldRef(e?.valueFrom?.fieldRef);
  for (const list of [c.resources?.limits, c.resources?.requests]) roundUpResourceList(list);
  // startupProbe is deliberately not defaulted: upstream only defaults liveness and readiness.
  for (const probe of [c.livenessProbe, c.readinessProbe]) if (probe) defaultProbe(probe);
  for (const handler of [c.lifecycle?.postStart, c.lifecycle?.preStop]) defaultHttpGet(handler?.httpGet);

  return goNormalize(c, 'SidecarContainer', sidecarContainerSchema) as SidecarContainer;
}

export function defaultProbe(probe: Json): void {
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  defaultHttpGet(probe.httpGet);
}

export function defaultHttpGet(action: Json | null | undefined): void {
  if (!action) return;
  if (!action.path) action.path = '/';
  if (!action.scheme) action.scheme = 'HTTP';
}

export function defaultFieldRef(ref: Json | null | undefined): void {
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}

/** k8s SetDefaults_ResourceList: every quantity rounded up to milli scale. */
export function roundUpResourceList(list: Json | null | undefined): void {
  if (!list || typeof list !== 'object') return;
  for (const [name, value] of Object.entries(list)) {
    if (typeof value === 'string' || typeof value === 'number') list[name] = canonicalQuantity(value, { roundUpToMilli: true });
  }
}
