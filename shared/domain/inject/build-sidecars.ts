// Per-SidecarSet construction of the containers, volumes, secrets and annotations to inject (spec/webhooks.md §2.5).
// Nothing is deep-copied per pod: a built container is a new top-level object whose fields that change (env,
// volumeMounts) are new arrays, and everything else (resources, probes, volumes, the env and mount entries themselves)
// is shared with the pod or with a frozen copy of the SidecarSet made once per generation; a whole injected container is
// reused across pods that lend it the same envs and mounts (injected-forms.ts). No step writes below a container's own
// fields, so sharing is safe and saves a deep copy of every injected container per review; the result is read-only,
// like the SidecarSets it comes from.
import type { Container, LocalObjectReference, Pod, Volume } from '../../api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import {
  SidecarEnvIsInjected,
  SidecarSetHashAnnotation,
  SidecarSetHashWithoutImageAnnotation,
  SidecarSetWorkingHotUpgradeContainer,
} from '../../api/sidecarset.js';
import { byteOrder, formatStringMap, formatTimestamp, parseStringMap, withTail } from './annotations.js';
import { hotUpgradePair, isHotUpgrade } from './hot-upgrade.js';
import { deepFreeze } from '../frozen-json.js';
import { cloneJson } from './clone.js';
import { hashAnnotations, type SetEntries } from './hash-annotations.js';
import { InjectedForms } from './injected-forms.js';
import { AdmissionDeniedError } from '../../errors.js';
import { ResourcesPolicyError, withPolicyResources } from '../resources-policy/apply.js';
import { mergeDevices, mergeEnvs, mergeMounts, sharedDevices, sharedEntriesBudget, sharedMountsAndEnvs, transferEnvs } from './share.js';

type EnvVar = NonNullable<Container['env']>[number];
type VolumeMount = NonNullable<Container['volumeMounts']>[number];
type VolumeDevice = NonNullable<Container['volumeDevices']>[number];

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
interface SetFacts extends SetEntries {
  resourceVersion: string | undefined;
  /** Kept per SidecarSet generation (the same object until the SidecarSet changes). */
  cached: boolean;
  volumesByName: Map<string, Volume>;
  /** By the SidecarSet's own container object; only for cached facts (a resourceVersion pins the object's content). */
  forms?: Map<SidecarContainer, InjectedForms>;
}

function setFacts(set: SidecarSet, cached: boolean): SetFacts {
  const name = set.metadata?.name ?? '';
  const spec = set.spec ?? {};
  // Cached facts hand out frozen copies, which every pod shares and whose JSON the patch encoder remembers.
  const volumesByName = new Map((spec.volumes ?? []).map((v) => [v.name, cached ? deepFreeze(cloneJson(v)) : v]));
  const facts: SetFacts = { name, resourceVersion: set.metadata?.resourceVersion, cached, volumesByName };
  const inits = spec.initContainers ?? [];
  const containers = spec.containers ?? [];
  if (inits.length === 0 && containers.length === 0) return facts;
  if (cached) facts.forms = new Map([...inits, ...containers].map((c) => [c, new InjectedForms(c, volumesByName)]));
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
  if (!rv) return setFacts(set, false);
  let f = factsCache.get(set);
  if (!f || f.resourceVersion !== rv) factsCache.set(set, (f = setFacts(set, true)));
  return f;
}

/** The pod's env vars by `<container>/<name>` (last one wins), built on first use: only transferEnv needs them. */
function envIndex(pod: Pod): () => Map<string, EnvVar> {
  let index: Map<string, EnvVar> | undefined;
  return () => {
    if (index) return index;
    index = new Map();
    for (const c of pod.spec?.containers ?? []) for (const e of c.env ?? []) index.set(`${c.name}/${e.name}`, e);
    return index;
  };
}

interface Taken {
  /** Envs to append: transferred ones, then those the shared mounts' subPathExpr use. */
  envs: EnvVar[];
  mounts: VolumeMount[];
  devices: VolumeDevice[];
}

const NOTHING_SHARED = { mounts: [], envs: [], key: '' };
const NO_DEVICES = { devices: [] as VolumeDevice[], key: '' };

/** A copy of `source` with the shared mounts, IS_INJECTED and the taken envs (new arrays; nothing below is written). */
function decorate(source: SidecarContainer, taken: Taken): SidecarContainer {
  const c = { ...source };
  const mounts = mergeMounts(c, taken.mounts);
  if (mounts.length > 0) c.volumeMounts = mounts;
  c.env = mergeEnvs([...(c.env ?? []), { name: SidecarEnvIsInjected, value: 'true' }], taken.envs);
  // After the mounts are merged: a shared device may not take a path a (shared) mount now uses.
  const devices = mergeDevices(c, taken.devices);
  if (devices.length > 0) c.volumeDevices = devices;
  return c;
}

/** The sidecar with the resources its policy computes for this pod (spec/openkruise-v1.9.md §3); refuses the pod on error. */
function sized(sidecar: SidecarContainer, pod: Pod, sets: readonly SidecarSet[]): SidecarContainer {
  try {
    return withPolicyResources(sidecar, pod, sets);
  } catch (err) {
    if (err instanceof ResourcesPolicyError) throw new AdmissionDeniedError(err.message, 400, { cause: err });
    throw err;
  }
}

/**
 * Builds everything the matched SidecarSets (in order, revisions already chosen) inject into a pod being created.
 * Existing hash annotations are parsed (refused if garbage) and entries of other SidecarSets preserved.
 */
export function buildSidecars(sets: SidecarSet[], pod: Pod, now: Date, podRef: string): BuiltSidecars {
  const annotations = pod.metadata?.annotations ?? {};
  const workInfo = parseStringMap(annotations[SidecarSetWorkingHotUpgradeContainer]);
  const out: BuiltSidecars = { initContainers: [], containers: [], volumes: [], imagePullSecrets: [], annotations: {} };
  const envs = envIndex(pod);
  // The JSON of the pod's env vars taken by sidecars, once per review: one is often taken by many.
  const texts = new Map<unknown, string>();
  const text = (item: unknown) => {
    let t = texts.get(item);
    if (t === undefined) texts.set(item, (t = JSON.stringify(item) ?? 'null'));
    return t;
  };
  // What shareVolumePolicy takes depends on the pod alone: gathered (and keyed) once for every sidecar that shares.
  let podShared: { mounts: VolumeMount[]; envs: EnvVar[]; key: string } | undefined;
  const sharedWith = (sidecar: SidecarContainer) => {
    if (sidecar.shareVolumePolicy?.type !== 'enabled') return NOTHING_SHARED;
    if (podShared) return podShared;
    const { mounts, envs } = sharedMountsAndEnvs(sidecar, pod);
    return (podShared = { mounts, envs, key: `${envs.map(text).join(',')}|${mounts.map(text).join(',')}` });
  };
  // shareVolumeDevicePolicy likewise takes the app containers' devices, the same for every sidecar that shares them.
  let podDevices: { devices: VolumeDevice[]; key: string } | undefined;
  const devicesWith = (sidecar: SidecarContainer) => {
    if (sidecar.shareVolumeDevicePolicy?.type !== 'enabled') return NO_DEVICES;
    if (podDevices) return podDevices;
    const devices = sharedDevices(sidecar, pod);
    return (podDevices = { devices, key: devices.map(text).join(',') });
  };
  const taken = (transferred: EnvVar[], shared: { mounts: VolumeMount[]; envs: EnvVar[] }, devices: { devices: VolumeDevice[] }): Taken =>
    ({ envs: mergeEnvs(transferred, shared.envs), mounts: shared.mounts, devices: devices.devices });
  const charge = sharedEntriesBudget(podRef);

  /** A decorated sidecar; queues the SidecarSet volumes its own mounts use. */
  const build = (original: SidecarContainer, facts: SetFacts): SidecarContainer => {
    const forms = facts.forms?.get(original);
    // resourcesPolicy first, as upstream, on this pod's own containers: the result is per pod, never remembered.
    const source = original.resourcesPolicy ? sized(forms?.source ?? original, pod, sets) : forms?.source ?? original;
    const transferred = transferEnvs(source, pod, envs);
    const shared = sharedWith(source);
    const devices = devicesWith(source);
    charge(shared.mounts.length + shared.envs.length + devices.devices.length);
    if (forms && source !== forms.source) {
      out.volumes.push(...forms.volumes);
      return decorate(source, taken(transferred, shared, devices));
    }
    if (!forms) {
      // v1.8 dereferences the volume unchecked (validation guarantees it); skipping a missing one, and taking the
      // volumes of volumeDevices too (validation requires them as for mounts), is HEAD's behaviour.
      for (const m of [...(original.volumeMounts ?? []), ...(original.volumeDevices ?? [])]) {
        const v = facts.volumesByName.get(m.name);
        if (v) out.volumes.push(v);
      }
      return decorate(source, taken(transferred, shared, devices));
    }
    out.volumes.push(...forms.volumes);
    if (!forms.remembering) return decorate(source, taken(transferred, shared, devices));
    // The injected form is a function of these texts alone (what decorate appends, and in which order).
    const key = transferred.length === 0 && shared === NOTHING_SHARED && devices === NO_DEVICES ? ''
      : `${transferred.map(text).join(',')}|${shared.key}|${devices.key}`;
    return forms.lookup(key) ?? forms.remember(key, decorate(source, cloneJson(taken(transferred, shared, devices))));
  };

  const injecting: SetFacts[] = [];
  let hotUpgraded = false;
  for (const set of sets) {
    const spec = set.spec ?? {};
    const facts = factsOf(set);
    injecting.push(facts);

    for (const init of spec.initContainers ?? []) {
      const c = build(init, facts);
      if (isNativeSidecar(init) && isHotUpgrade(init)) {
        const pair = hotUpgradePair(c, workInfo);
        hotUpgraded = true;
        out.initContainers.push(...pair.containers);
        Object.assign(out.annotations, pair.annotations);
      } else out.initContainers.push(c);
    }
    out.imagePullSecrets.push(...(spec.imagePullSecrets ?? []));

    for (const sidecar of spec.containers ?? []) {
      const c = build(sidecar, facts);
      if (isHotUpgrade(sidecar)) {
        const pair = hotUpgradePair(c, workInfo);
        hotUpgraded = true;
        out.containers.push(...pair.containers);
        Object.assign(out.annotations, pair.annotations);
      } else out.containers.push(c);
    }
  }

  if (hotUpgraded) out.annotations[SidecarSetWorkingHotUpgradeContainer] = formatStringMap(workInfo);
  Object.assign(out.annotations, hashAnnotations(injecting, annotations, formatTimestamp(now), podRef, injecting.every((f) => f.cached)));
  return out;
}
