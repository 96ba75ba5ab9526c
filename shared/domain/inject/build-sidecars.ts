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
import { byteOrder, formatTimestamp, formatUpgradeSpecMap, parseStringMap, parseUpgradeSpecMap } from './annotations.js';
import { hotUpgradePair, isHotUpgrade } from './hot-upgrade.js';
import { mergeEnvs, mergeMounts, sharedMountsAndEnvs, transferEnvs } from './share.js';

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

/** Mounts, IS_INJECTED and transferred envs on a copy of `source`; queues the SidecarSet volumes its own mounts use. */
function decorate(source: SidecarContainer, pod: Pod, volumesByName: Map<string, Volume>, volumes: Volume[]): SidecarContainer {
  const c = { ...source };
  const shared = sharedMountsAndEnvs(c, pod);
  const extraEnvs = mergeEnvs(transferEnvs(c, pod), shared.envs);
  for (const m of c.volumeMounts ?? []) {
    // v1.8 dereferences the volume unchecked (validation guarantees it); skipping a missing one is HEAD's behaviour.
    const v = volumesByName.get(m.name);
    if (v) volumes.push(v);
  }
  const mounts = mergeMounts(c.volumeMounts ?? [], shared.mounts);
  if (mounts.length > 0) c.volumeMounts = mounts;
  c.env = mergeEnvs([...(c.env ?? []), { name: SidecarEnvIsInjected, value: 'true' }], extraEnvs);
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
    const volumesByName = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
    const sidecarList = new Set<string>();
    let injecting = false;

    for (const init of spec.initContainers ?? []) {
      if (isNativeSidecar(init)) sidecarList.add(init.name);
      const c = decorate(init, pod, volumesByName, out.volumes);
      injecting = true;
      if (isNativeSidecar(init) && isHotUpgrade(init)) {
        const pair = hotUpgradePair(c, workInfo);
        out.initContainers.push(...pair.containers);
        Object.assign(out.annotations, pair.annotations);
      } else out.initContainers.push(c);
    }
    out.imagePullSecrets.push(...(spec.imagePullSecrets ?? []));

    for (const sidecar of spec.containers ?? []) {
      sidecarList.add(sidecar.name);
      const c = decorate(sidecar, pod, volumesByName, out.volumes);
      injecting = true;
      if (isHotUpgrade(sidecar)) {
        const pair = hotUpgradePair(c, workInfo);
        out.containers.push(...pair.containers);
        Object.assign(out.annotations, pair.annotations);
      } else out.containers.push(c);
    }

    if (injecting) {
      const list = [...sidecarList].sort(byteOrder);
      const setAnnotations = set.metadata?.annotations ?? {};
      hash.set(name, {
        updateTimestamp: timestamp,
        hash: setAnnotations[SidecarSetHashAnnotation] ?? '',
        sidecarSetName: name,
        sidecarList: list,
        ...(set.status?.latestRevision ? { controllerRevision: set.status.latestRevision } : {}),
      });
      hashWithoutImage.set(name, { updateTimestamp: timestamp, hash: setAnnotations[SidecarSetHashWithoutImageAnnotation] ?? '', sidecarSetName: name, sidecarList: [...list] });
    }
  }

  out.annotations[SidecarSetHashAnnotation] = formatUpgradeSpecMap(hash);
  out.annotations[SidecarSetHashWithoutImageAnnotation] = formatUpgradeSpecMap(hashWithoutImage);
  out.annotations[SidecarSetListAnnotation] = [...names].sort(byteOrder).join(',');
  return out;
}
