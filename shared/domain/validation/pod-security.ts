// A pod's own security settings as Kubernetes 1.32 validates them in a pod spec (pkg/apis/core/validation:
// validatePodSpecSecurityContext, validateHostUsers, validateWindowsHostProcessPod, validateOS/validateLinux/
// validateWindows). In the v1 API hostNetwork/hostPID/hostIPC/shareProcessNamespace/hostUsers sit on the pod spec;
// Kubernetes keeps them in the internal securityContext, which decides a few paths below.
import type { Violation } from '../../errors.js';
import { duplicate, forbidden, inclusiveRangeError, invalid, isSet, list, notSupported, obj, required, str, type Json } from './field-errors.js';
import { validateAppArmorProfile, validateSeccompProfile, validateWindowsOptions } from './security-context.js';

const maxId = 2147483647;
const SYSCTL = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_SHOWN = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const IPC_SYSCTLS = ['kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.sem'];

/** Which namespace a sysctl belongs to (component-helpers sysctl.GetNamespace), "/" separators read as ".". */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const n = name.includes('/') && (name.indexOf('/') < name.indexOf('.') || !name.includes('.')) ? name.replaceAll('/', '.') : name;
  if (n.startsWith('net.')) return 'net';
  if (n.startsWith('fs.mqueue.') || IPC_SYSCTLS.includes(n)) return 'ipc';
  return undefined;
}

const id = (v: unknown, f: string): Violation[] =>
  typeof v === 'number' && (v < 0 || v > maxId) ? [invalid(f, v, inclusiveRangeError(0, maxId))] : [];

/** validatePodSpecSecurityContext over the v1 pod spec `spec`, errors under `f` (the spec's path). */
export function validatePodSecurityContext(spec: Json, f: string): Violation[] {
  const sc = obj(spec.securityContext);
  const out: Violation[] = [];
  const sf = `${f}.securityContext`;
  if (sc) {
    out.push(...id(sc.fsGroup, `${sf}.fsGroup`), ...id(sc.runAsUser, `${sf}.runAsUser`), ...id(sc.runAsGroup, `${sf}.runAsGroup`));
    list(sc.supplementalGroups).forEach((g, i) => out.push(...id(g, `${sf}.supplementalGroups[${i}]`)));
  }
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    out.push(invalid(`${sf}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (!sc) return out;
  const names = new Set<string>();
  list(sc.sysctls).forEach((raw, i) => {
    const name = str(obj(raw)?.name);
    const nf = `${sf}.sysctls[${i}].name`;
    if (name === '') out.push(required(nf));
    else if (name.length > 253 || !SYSCTL.test(name)) out.push(invalid(nf, name, `must have at most 253 characters and match regex ${SYSCTL_SHOWN}`));
    else if (names.has(name)) out.push(duplicate(nf, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') out.push(invalid(nf, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') out.push(invalid(nf, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  if (isSet(sc.fsGroupChangePolicy) && !['Always', 'OnRootMismatch'].includes(str(sc.fsGroupChangePolicy))) {
    out.push(notSupported(`${sf}.fsGroupChangePolicy`, str(sc.fsGroupChangePolicy), ['Always', 'OnRootMismatch']));
  }
  out.push(...validateSeccompProfile(obj(sc.seccompProfile), `${sf}.seccompProfile`));
  out.push(...validateWindowsOptions(obj(sc.windowsOptions), `${sf}.windowsOptions`));
  out.push(...validateAppArmorProfile(obj(sc.appArmorProfile), `${sf}.appArmorProfile`));
  if (isSet(sc.supplementalGroupsPolicy) && !['Merge', 'Strict'].includes(str(sc.supplementalGroupsPolicy))) {
    out.push(notSupported(`${sf}.supplementalGroupsPolicy`, str(sc.supplementalGroupsPolicy), ['Merge', 'Strict']));
  }
  if (isSet(sc.seLinuxChangePolicy) && !['MountOption', 'Recursive'].includes(str(sc.seLinuxChangePolicy))) {
    out.push(notSupported(`${sf}.seLinuxChangePolicy`, str(sc.seLinuxChangePolicy), ['MountOption', 'Recursive']));
  }
  return out;
}

/** hostUsers false excludes the host namespaces (Kubernetes spells two of the paths HostPID / HostIPC). */
export function validateHostUsers(spec: Json, f: string): Violation[] {
  if (spec.hostUsers !== false) return [];
  const out: Violation[] = [];
  const why = 'when `pod.Spec.HostUsers` is false';
  if (spec.hostNetwork === true) out.push(forbidden(`${f}.hostNetwork`, why));
  if (spec.hostPID === true) out.push(forbidden(`${f}.HostPID`, why));
  if (spec.hostIPC === true) out.push(forbidden(`${f}.HostIPC`, why));
  return out;
}

/** Every container of the pod with its path, in podshelper.VisitContainersWithPath's order. */
export function containersWithPath(spec: Json, f: string): [Json, string][] {
  return [
    ...list(spec.initContainers).map((c, i): [Json, string] => [obj(c) ?? {}, `${f}.initContainers[${i}]`]),
    ...list(spec.containers).map((c, i): [Json, string] => [obj(c) ?? {}, `${f}.containers[${i}]`]),
    ...list(spec.ephemeralContainers).map((c, i): [Json, string] => [obj(c) ?? {}, `${f}.ephemeralContainers[${i}]`]),
  ];
}

export function validateWindowsHostProcessPod(spec: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const podHP = obj(obj(spec.securityContext)?.windowsOptions)?.hostProcess;
  let count = 0;
  let hostProcess = 0;
  for (const [c, cf] of containersWithPath(spec, f)) {
    count++;
    const hp = obj(obj(c.securityContext)?.windowsOptions)?.hostProcess;
    if (typeof podHP === 'boolean' && typeof hp === 'boolean' && podHP !== hp) {
      out.push(invalid(`${cf}.securityContext.windowsOptions.hostProcess`, hp, `pod hostProcess value must be identical if both are specified, was ${podHP}`));
    }
    if (hp === true || (!isSet(hp) && podHP === true)) hostProcess++;
  }
  if (hostProcess > 0) {
    if (hostProcess !== count) out.push(invalid(f, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    if (spec.hostNetwork !== true) out.push(invalid(`${f}.hostNetwork`, false, 'hostNetwork must be true if pod contains any hostProcess containers'));
  }
  return out;
}

const windowsPodFields: [string, (spec: Json, sc: Json) => boolean][] = [
  ['securityContext.appArmorProfile', (_p, sc) => isSet(sc.appArmorProfile)],
  ['securityContext.seLinuxOptions', (_p, sc) => isSet(sc.seLinuxOptions)],
  ['hostUsers', (p) => isSet(p.hostUsers)],
  ['hostPID', (p) => p.hostPID === true],
  ['hostIPC', (p) => p.hostIPC === true],
  ['securityContext.seccompProfile', (_p, sc) => isSet(sc.seccompProfile)],
  ['securityContext.fsGroup', (_p, sc) => isSet(sc.fsGroup)],
  ['securityContext.fsGroupChangePolicy', (_p, sc) => isSet(sc.fsGroupChangePolicy)],
  ['securityContext.sysctls', (_p, sc) => list(sc.sysctls).length > 0],
  ['shareProcessNamespace', (p) => isSet(p.shareProcessNamespace)],
  ['securityContext.runAsUser', (_p, sc) => isSet(sc.runAsUser)],
  ['securityContext.runAsGroup', (_p, sc) => isSet(sc.runAsGroup)],
  ['securityContext.supplementalGroups', (_p, sc) => isSet(sc.supplementalGroups)],
  ['securityContext.supplementalGroupsPolicy', (_p, sc) => isSet(sc.supplementalGroupsPolicy)],
  ['securityContext.seLinuxChangePolicy', (_p, sc) => isSet(sc.seLinuxChangePolicy)],
];
const windowsContainerFields = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged',
  'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

/** spec.os: a known name, then the other OS's settings are refused. */
export function validateOS(spec: Json, f: string): Violation[] {
  const os = obj(spec.os);
  if (!os) return [];
  const name = str(os.name);
  if (name === '') return [required(`${f}.os.name`, 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [notSupported(`${f}.os`, name, ['linux', 'windows'])];
  const out: Violation[] = [];
  // The v1 → internal conversion always makes a PodSecurityContext (it carries the host namespace fields).
  const sc = obj(spec.securityContext) ?? {};
  if (name === 'linux') {
    if (isSet(sc.windowsOptions)) out.push(forbidden(`${f}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    for (const [c, cf] of containersWithPath(spec, f)) {
      if (isSet(obj(c.securityContext)?.windowsOptions)) out.push(forbidden(`${cf}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    }
    return out;
  }
  for (const [p, set] of windowsPodFields) if (set(spec, sc)) out.push(forbidden(`${f}.${p}`, 'cannot be set for a windows pod'));
  for (const [c, cf] of containersWithPath(spec, f)) {
    const csc = obj(c.securityContext);
    if (!csc) continue;
    for (const k of windowsContainerFields) if (isSet(csc[k])) out.push(forbidden(`${cf}.securityContext.${k}`, 'cannot be set for a windows pod'));
  }
  return out;
}
