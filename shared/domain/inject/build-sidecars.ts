// Per-SidecarSet construction of the containers, volumes, secrets and annotations to inject (spec/webhooks.md §2.5).
// Nothing is deep-copied: a built container is a new top-level object whose fields that change (env, volumeMounts) are
// new arrays, and everything else (resources, probes, volumes, the env and mount entries themselves) is shared with the
// SidecarSet or the pod. No step writes below a container's own fields, so sharing is safe and saves a deep copy of
// every injected container per review; the result is read-only, like the SidecarSets it comes from.
import type { Container, LocalObjectReference, Pod, Volume } from '../../api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import {
  SidecarEnvIsInjected,
  SidecarSetHashAnnotation,
  SidecarSetHashWithoutImageAnnotation,
  SidecarSetListAnnotation,
  SidecarSetWorkingHotUpgradeContainer,
} from '../../api/sidecarset.js';
import { byteOrder, formatTimestamp, formatUpgradeSpecMap, parseStringMap, parseUpgradeSpecMap, withTail, type UpgradeSpec } from './annotations.js';
import { hotUpgradePair, isHotUpgrade } from './hot-upgrade.js';
import { mergeDevices, mergeEnvs, mergeMounts, sharedDevices, sharedMountsAndEnvs, transferEnvs } from './share.js';

export interface BuiltSidecars {
  initContainers: SidecarContainer[];
  containers: SidecarContainer[];
  /** Volumes referenced by sidecar mounts, in queue order (duplicates resolved at merge time). */
  volumes: Volume[];
  imagePullSecrets: LocalObjectReference[];
  /** Hash, hash-without-image, injected-list and hot-upgrade annotations; applied only if something was built. */
  annotations: Record<string, string>;
}

const isNativeSidecar = (c: Container) => c.restartPolicy === 'Always';

/** What a SidecarSet contributes whatever the pod: volumes by name and, if it injects anything, its hash entries. */
interface SetFacts {
  resourceVersion: string | undefined;
  volumesByName: Map<string, Volume>;
  /** Both entries with updateTimestamp null and the rest pre-rendered (withTail); undefined when nothing is injected. */
  entries?: { hash: UpgradeSpec; hashWithoutImage: UpgradeSpec };
}

function setFacts(set: SidecarSet): SetFacts {
  const name = set.metadata?.name ?? '';
  const spec = set.spec ?? {};
  const facts: SetFacts = { resourceVersion: set.metadata?.resourceVersion, volumesByName: new Map((spec.volumes ?? []).map((v) => [v.name, v])) };
  const inits = spec.initContainers ?? [];
  const containers = spec.containers ?? [];
  if (inits.length === 0 && containers.length === 0) return facts;
  // Native-sidecar init containers and every container, de-duplicated and sorted (upstream's sidecarList).
  const list = [...new Set([...inits.filter(isNativeSidecar), ...containers].map((c) => c.name))].sort(byteOrder);
  const setAnnotations = set.metadata?.annotations ?? {};
  facts.entries = {
    hash: withTail({
      updateTimestamp: null,
      hash: setAnnotations[SidecarSetHashAnnotation] ?? '',
      sidecarSetName: name,
      sidecarList: list,
      ...(set.status?.latestRevision ? { controllerRevision: set.status.latestRevision } : {}),
    }),
    hashWithoutImage: withTail({ updateTimestamp: null, hash: setAnnotations[SidecarSetHashWithoutImageAnnotation] ?? '', sidecarSetName: name, sidecarList: [...list] }),
  };
  return facts;
}

// Keyed by SidecarSet object and checked against its resourceVersion, like the compiled matchers (match.ts): informer
// objects are replaced, never edited, on change. Objects without a resourceVersion are read afresh every time.
const factsCache = new WeakMap<SidecarSet, SetFacts>();

function factsOf(set: SidecarSet): SetFacts {
  const rv = set.metadata?.resourceVersion;
  if (!rv) return setFacts(set);
  let f = factsCache.get(set);
  if (!f || f.resourceVersion !== rv) factsCache.set(set, (f = setFacts(set)));
  return f;
}

/** Mounts, IS_INJECTED and transferred envs on a copy of `source`; queues the SidecarSet volumes its own mounts use. */
function decorate(source: SidecarContainer, pod: Pod, volumesByName: Map<string, Volume>, volumes: Volume[]): SidecarContainer {
  const c = { ...source };
  const shared = sharedMountsAndEnvs(c, pod);
  const extraEnvs = mergeEnvs(transferEnvs(c, pod), shared.envs);
  // v1.8 dereferences the volume unchecked (validation guarantees it); skipping a missing one, and taking the volumes of
  // volumeDevices too (validation requires them as for mounts), is HEAD's behaviour.
  for (const m of [...(c.volumeMounts ?? []), ...(c.volumeDevices ?? [])]) {
    const v = volumesByName.get(m.name);
    if (v) volumes.push(v);
  }
  const mounts = mergeMounts(c, shared.mounts);
  if (mounts.length > 0) c.volumeMounts = mounts;
  c.env = mergeEnvs([...(c.env ?? []), { name: SidecarEnvIsInjected, value: 'true' }], extraEnvs);
  // After the mounts are merged: a shared device may not take a path a (shared) mount now uses.
  const devices = mergeDevices(c, sharedDevices(c, pod));
  if (devices.length > 0) c.volumeDevices = devices;
  return c;
}

/**
 * Builds everything the matched SidecarSets (in order, revisions already chosen) inject into a pod being created.
 * Existing hash annotations are parsed first (refused if garbage) and entries of other SidecarSets preserved.
 */
export function buildSidecars(sets: SidecarSet[], pod: Pod, now: Date, podRef: string): BuiltSidecars {
  const annotations = pod.metadata?.annotations ?? {};
  const hash = parseUpgradeSpecMap(annotations[SidecarSetHashAnnotation], SidecarSetHashAnnotation, podRef);
  const hashWithoutImage = parseUpgradeSpecMap(annotations[SidecarSetHashWithoutImageAnnotation], SidecarSetHashWithoutImageAnnotation, podRef);
  const workInfo = parseStringMap(annotations[SidecarSetWorkingHotUpgradeContainer]);
  const names = new Set(annotations[SidecarSetListAnnotation] ? annotations[SidecarSetListAnnotation].split(',') : []);
  const out: BuiltSidecars = { initContainers: [], containers: [], volumes: [], imagePullSecrets: [], annotations: {} };
  const timestamp = formatTimestamp(now);

  for (const set of sets) {
    const name = set.metadata?.name ?? '';
    const spec = set.spec ?? {};
    names.add(name);
    const { volumesByName, entries } = factsOf(set);

    for (const init of spec.initContainers ?? []) {
      const c = decorate(init, pod, volumesByName, out.volumes);
      if (isNativeSidecar(init) && isHotUpgrade(init)) {
        const pair = hotUpgradePair(c, workInfo);
        out.initContainers.push(...pair.containers);
        Object.assign(out.annotations, pair.annotations);
      } else out.initContainers.push(c);
    }
    out.imagePullSecrets.push(...(spec.imagePullSecrets ?? []));

    for (const sidecar of spec.containers ?? []) {
      const c = decorate(sidecar, pod, volumesByName, out.volumes);
      if (isHotUpgrade(sidecar)) {
        const pair = hotUpgradePair(c, workInfo);
        out.containers.push(...pair.containers);
        Object.assign(out.annotations, pair.annotations);
      } else out.containers.push(c);
    }

    if (entries) {
      hash.set(name, { ...entries.hash, updateTimestamp: timestamp });
      hashWithoutImage.set(name, { ...entries.hashWithoutImage, updateTimestamp: timestamp });
    }
  }

  out.annotations[SidecarSetHashAnnotation] = formatUpgradeSpecMap(hash);
  out.annotations[SidecarSetHashWithoutImageAnnotation] = formatUpgradeSpecMap(hashWithoutImage);
  out.annotations[SidecarSetListAnnotation] = [...names].sort(byteOrder).join(',');
  return out;
}
