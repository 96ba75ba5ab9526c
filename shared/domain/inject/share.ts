// Mounts and envs a sidecar takes from the pod's app containers (spec/webhooks.md §2.7).
import type { Container, Pod } from '../../api/meta.js';
import type { SidecarContainer, TransferEnvVar } from '../../api/sidecarset.js';
import { SidecarEnvIsInjected } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';

type EnvVar = NonNullable<Container['env']>[number];
type VolumeMount = NonNullable<Container['volumeMounts']>[number];
type VolumeDevice = NonNullable<Container['volumeDevices']>[number];

/** A container upstream treats as an injected sidecar: its first IS_INJECTED env says "true". */
export function isInjectedSidecar(c: Container): boolean {
  return c.env?.find((e) => e.name === SidecarEnvIsInjected)?.value === 'true';
}

const EXPANSION = /\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g;

/** The container's env vars by name, the FIRST of a repeated name winning (upstream's GetContainerEnvVar scans in order). */
function firstEnvByName(c: Container): Map<string, EnvVar> {
  const byName = new Map<string, EnvVar>();
  for (const e of c.env ?? []) if (!byName.has(e.name)) byName.set(e.name, e);
  return byName;
}

/**
 * With `shareVolumePolicy.type: enabled`, every volumeMount of every app container (never init containers, never
 * containers already carrying IS_INJECTED=true), in order, plus the source container's env vars that a mount's
 * subPathExpr references. Nothing is filtered: the service-account token mount is shared too, as upstream does.
 *
 * Linear in the pod (review C1): each container's env is indexed once, not scanned per `$(VAR)` reference, and an env
 * var referenced again is listed once, in first-reference order. The merge that consumes the list keeps the first of a
 * name anyway (mergeEnvs), so dropping repeats here changes nothing but the work.
 */
export function sharedMountsAndEnvs(sidecar: SidecarContainer, pod: Pod): { mounts: VolumeMount[]; envs: EnvVar[] } {
  const mounts: VolumeMount[] = [];
  const envs: EnvVar[] = [];
  if (sidecar.shareVolumePolicy?.type !== 'enabled') return { mounts, envs };
  const taken = new Set<string>();
  for (const app of pod.spec?.containers ?? []) {
    if (isInjectedSidecar(app)) continue;
    let byName: Map<string, EnvVar> | undefined;
    for (const m of app.volumeMounts ?? []) {
      mounts.push(m);
      if (!m.subPathExpr) continue;
      for (const [, name] of m.subPathExpr.matchAll(EXPANSION)) {
        if (taken.has(name!)) continue;
        const env = (byName ??= firstEnvByName(app)).get(name!);
        if (!env) continue;
        taken.add(name!);
        envs.push(env);
      }
    }
  }
  return { mounts, envs };
}

/**
 * The most volumeMounts, volumeDevices and env vars that sharing may add to a pod, over all its sharing sidecars.
 * Sharing copies the app containers' entries into every sidecar with a share policy, so the work (and the patch) is
 * (sharing sidecars) × (pod's entries): bounded here so that product cannot stall the webhook. 50,000: a shared entry
 * takes about 50–75 bytes of the base64 patch in the reply (a mount with name, mountPath and subPathExpr, an env var
 * with name and value; measured on the webhook's cost cases), so 50,000 of them make a reply of about 3 MiB, the most
 * the apiserver could apply (webhook/admission/reply-limit.ts, from its 3 MiB request limit, twice etcd's 1.5 MiB).
 * Past it the patch could almost never be sent: refusing here says why, before the copy and the diff are paid for
 * (review N-H2; 100,000 before, whose patches reached 5–9 MB). No real pod comes near it.
 */
export const MAX_SHARED_ENTRIES = 50_000;

/** Counts what sharing adds to one pod and refuses (400) past MAX_SHARED_ENTRIES. */
export function sharedEntriesBudget(podRef: string): (added: number) => void {
  let total = 0;
  return (added) => {
    total += added;
    if (total <= MAX_SHARED_ENTRIES) return;
    throw new AdmissionDeniedError(
      `pod(${podRef}): sidecars with shareVolumePolicy or shareVolumeDevicePolicy enabled would take more than ${MAX_SHARED_ENTRIES} ` +
        'volumeMounts, volumeDevices and env vars from the app containers (each sharing sidecar takes them all); the mutated ' +
        "pod would exceed the apiserver's object size limit. Reduce the pod's volumeMounts or subPathExpr env vars",
      400,
    );
  };
}

/**
 * HEAD's GetInjectedVolumeDevices: with `shareVolumeDevicePolicy.type: enabled`, every volumeDevice of every app
 * container (same sources as shared mounts; init containers not shared, as upstream's TODO says).
 */
export function sharedDevices(sidecar: SidecarContainer, pod: Pod): VolumeDevice[] {
  if (sidecar.shareVolumeDevicePolicy?.type !== 'enabled') return [];
  return (pod.spec?.containers ?? []).filter((app) => !isInjectedSidecar(app)).flatMap((app) => app.volumeDevices ?? []);
}

// IsQualifiedName: optional DNS-1123 subdomain prefix + "/" + a name of at most 63 characters.
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function isQualifiedName(s: string): boolean {
  const parts = s.split('/');
  if (parts.length > 2) return false;
  const name = parts.at(-1)!;
  if (parts.length === 2 && (parts[0]!.length === 0 || parts[0]!.length > 253 || !DNS_SUBDOMAIN.test(parts[0]!))) return false;
  return name.length > 0 && name.length <= 63 && QUALIFIED_NAME.test(name);
}

/**
 * The source container named by `sourceContainerNameFrom.fieldRef`: `metadata.labels['K']` or
 * `metadata.annotations['K']` of the pod ("" when absent), or undefined for any other path (entry skipped upstream).
 */
export function containerNameFromFieldPath(fieldPath: string, pod: Pod): string | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const idx = fieldPath.indexOf("['");
  if (idx <= 0) return undefined;
  const path = fieldPath.slice(0, idx);
  const key = fieldPath.slice(idx + 2, -2);
  if (path === 'metadata.labels') return isQualifiedName(key) ? (pod.metadata?.labels?.[key] ?? '') : undefined;
  if (path === 'metadata.annotations') return isQualifiedName(key.toLowerCase()) ? (pod.metadata?.annotations?.[key] ?? '') : undefined;
  return undefined;
}

/**
 * Envs copied from app containers per `transferEnv` (names of one entry taken in sorted order; missing ones skipped).
 * `envIndex` gives the pod's env vars by `<container>/<name>`, the last one winning.
 */
export function transferEnvs(sidecar: SidecarContainer, pod: Pod, envIndex: () => Map<string, EnvVar>): EnvVar[] {
  const out: EnvVar[] = [];
  if (!sidecar.transferEnv?.length) return out;
  const byKey = envIndex();
  for (const t of sidecar.transferEnv) {
    const source = sourceContainer(t, pod);
    if (source === undefined) continue;
    const names = t.envNames?.length ? [...new Set([...(t.envName ? [t.envName] : []), ...t.envNames])].sort() : t.envName ? [t.envName] : [];
    for (const name of names) {
      const env = byKey.get(`${source}/${name}`);
      if (env) out.push(env);
    }
  }
  return out;
}

function sourceContainer(t: TransferEnvVar, pod: Pod): string | undefined {
  const ref = t.sourceContainerNameFrom?.fieldRef;
  return ref ? containerNameFromFieldPath(ref.fieldPath, pod) : (t.sourceContainerName ?? '');
}

/** A new array: `base`, then the items of `extra` whose key is not taken yet, by `base` or by `reserved` (first one wins). */
function appendNew<T>(base: T[], extra: T[], key: (item: T) => unknown, reserved: readonly unknown[] = []): T[] {
  const out = [...base];
  if (extra.length === 0) return out;
  // Lists here hold a handful of entries: a scan allocates nothing, a Set only pays off for long ones.
  const seen = out.length + extra.length > 16 ? new Set([...out.map(key), ...reserved]) : undefined;
  for (const item of extra) {
    const k = key(item);
    if (seen ? seen.has(k) : out.some((o) => key(o) === k) || reserved.includes(k)) continue;
    seen?.add(k);
    out.push(item);
  }
  return out;
}

/** util.MergeEnvVar: append `extra` envs whose name is not present yet (first one wins). */
export function mergeEnvs(base: EnvVar[], extra: EnvVar[]): EnvVar[] {
  return appendNew(base, extra, (e) => e.name);
}

/** util.MergeVolumeMounts: append `extra` mounts whose mountPath is neither a mountPath nor a devicePath of `c` yet. */
export function mergeMounts(c: Container, extra: VolumeMount[]): VolumeMount[] {
  return appendNew(c.volumeMounts ?? [], extra, (m) => m.mountPath, (c.volumeDevices ?? []).map((d) => d.devicePath));
}

/** util.MergeVolumeDevices (HEAD): append `extra` devices whose devicePath is neither a devicePath nor a mountPath of `c` yet. */
export function mergeDevices(c: Container, extra: VolumeDevice[]): VolumeDevice[] {
  return appendNew(c.volumeDevices ?? [], extra, (d) => d.devicePath, (c.volumeMounts ?? []).map((m) => m.mountPath));
}
