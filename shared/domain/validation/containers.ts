// Regular and init containers as Kubernetes validates them inside a pod (k8s core validation validateContainerCommon,
// validateContainers, validateInitContainers), with kruise's PodValidationOptions: sidecar resizePolicy and
// container restart rules not allowed, pod restartPolicy Always.
import type { Violation } from '../../errors.js';
import { validateEnv, validateEnvFrom } from './container-env.js';
import { checkHostPortConflicts, validateContainerPorts } from './container-ports.js';
import { validateResourceRequirements } from './container-resources.js';
import { duplicate, forbidden, invalid, invalidEach, isSet, list, notSupported, obj, required, str, type Json } from './field-errors.js';
import { isDNS1123Label } from './names.js';
import { validateLifecycle, validateLivenessOrStartupProbe, validateReadinessProbe } from './probes.js';
import { validateSecurityContext } from './security-context.js';
import { validateVolumeDevices, validateVolumeMounts } from './volume-mounts.js';

export interface ContainerContext {
  /** Pod volumes that passed validation, by name. */
  volumes: ReadonlyMap<string, Json>;
  /** The pod's terminationGracePeriodSeconds; undefined (unset) skips the sleep-action bound, as Kubernetes does. */
  gracePeriod: number | undefined;
  /** spec.securityContext.hostUsers (default true): `Unmasked` procMount needs false. */
  hostUsers?: boolean;
  /** The pod's restartPolicy ('Always' when absent): with 'Never', resize policies must be NotRequired. */
  restartPolicy?: string;
  /** The pod's spec.resourceClaims names, which container resources.claims must name. */
  podClaimNames?: readonly string[];
}

const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];

function validateContainerCommon(c: Json, ctx: ContainerContext, f: string): Violation[] {
  const out: Violation[] = [];
  const name = str(c.name);
  if (name === '') out.push(required(`${f}.name`));
  else out.push(...invalidEach(`${f}.name`, name, isDNS1123Label(name)));
  if (str(c.image) === '') out.push(required(`${f}.image`));
  const tmp = str(c.terminationMessagePolicy);
  if (tmp === '') out.push(required(`${f}.terminationMessagePolicy`));
  else if (!terminationMessagePolicies.includes(tmp)) out.push(notSupported(`${f}.terminationMessagePolicy`, tmp, terminationMessagePolicies));
  out.push(...validateContainerPorts(c.ports, `${f}.ports`));
  out.push(...validateEnv(c.env, `${f}.env`));
  out.push(...validateEnvFrom(c.envFrom, `${f}.envFrom`));
  out.push(...validateVolumeMounts(c, ctx.volumes, `${f}.volumeMounts`));
  out.push(...validateVolumeDevices(c, ctx.volumes, `${f}.volumeDevices`));
  out.push(...validatePullPolicy(c.imagePullPolicy, `${f}.imagePullPolicy`));
  out.push(...validateResourceRequirements(c.resources, `${f}.resources`, ctx.podClaimNames));
  out.push(...validateResizePolicy(c.resizePolicy, `${f}.resizePolicy`, ctx.restartPolicy ?? 'Always'));
  out.push(...validateSecurityContext(c.securityContext, `${f}.securityContext`, ctx.hostUsers ?? true));
  return out;
}

export function validatePullPolicy(policy: unknown, f: string): Violation[] {
  const p = str(policy);
  if (p === '') return [required(f)];
  return pullPolicies.includes(p) ? [] : [notSupported(f, p, pullPolicies)];
}

function validateResizePolicy(policies: unknown, f: string, podRestartPolicy: string): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  list(policies).forEach((raw, i) => {
    const p = obj(raw) ?? {};
    const resource = str(p.resourceName);
    const restart = str(p.restartPolicy);
    if (seen.has(resource)) out.push(duplicate(`${f}[${i}]`, resource));
    seen.add(resource);
    if (resource === '') out.push(required(f));
    else if (resource !== 'cpu' && resource !== 'memory') out.push(notSupported(f, resource, ['cpu', 'memory']));
    if (restart === '') out.push(required(f));
    else if (restart !== 'NotRequired' && restart !== 'RestartContainer') out.push(notSupported(f, restart, ['NotRequired', 'RestartContainer']));
    if (podRestartPolicy === 'Never' && restart !== 'NotRequired') out.push(invalid(f, restart, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return out;
}

/** Regular containers: names unique among themselves, probes and lifecycle allowed, no restartPolicy, shared host ports. */
export function validateContainers(containers: readonly unknown[], ctx: ContainerContext, f: string): Violation[] {
  if (containers.length === 0) return [required(f)];
  const out: Violation[] = [];
  const names = new Set<string>();
  containers.forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    out.push(...validateContainerCommon(c, ctx, idx));
    const name = str(c.name);
    if (names.has(name)) out.push(duplicate(`${idx}.name`, name));
    else names.add(name);
    if (obj(c.lifecycle)) out.push(...validateLifecycle(obj(c.lifecycle)!, ctx.gracePeriod, `${idx}.lifecycle`));
    out.push(...validateProbes(c, ctx.gracePeriod, idx));
    if (isSet(c.restartPolicy)) out.push(forbidden(`${idx}.restartPolicy`, 'may not be set for non-init containers'));
  });
  out.push(...checkHostPortConflicts(containers, f));
  return out;
}

function validateProbes(c: Json, gracePeriod: number | undefined, idx: string): Violation[] {
  return [
    ...validateLivenessOrStartupProbe(c.livenessProbe, gracePeriod, `${idx}.livenessProbe`),
    ...validateReadinessProbe(c.readinessProbe, gracePeriod, `${idx}.readinessProbe`),
    ...validateLivenessOrStartupProbe(c.startupProbe, gracePeriod, `${idx}.startupProbe`),
  ];
}

const initOnlyFields = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/**
 * Init containers: names unique across init and regular containers (a clash is reported here, on the init container),
 * restartPolicy only `Always` (a native sidecar, which may then carry probes and lifecycle), host ports per container.
 */
export function validateInitContainers(inits: readonly unknown[], regular: readonly unknown[], ctx: ContainerContext, f: string): Violation[] {
  const out: Violation[] = [];
  const names = new Set(regular.map((c) => str(obj(c)?.name)));
  inits.forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    out.push(...validateContainerCommon(c, ctx, idx));
    let restartAlways = false;
    if (isSet(c.restartPolicy)) {
      const policy = str(c.restartPolicy);
      if (policy !== 'Always') out.push(notSupported(`${idx}.restartPolicy`, policy, ['Always']));
      restartAlways = policy === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) out.push(duplicate(`${idx}.name`, name));
    else if (name !== '') names.add(name);
    out.push(...checkHostPortConflicts([c], f));
    if (restartAlways) {
      if (obj(c.lifecycle)) out.push(...validateLifecycle(obj(c.lifecycle)!, ctx.gracePeriod, `${idx}.lifecycle`));
      out.push(...validateProbes(c, ctx.gracePeriod, idx));
    } else {
      for (const k of initOnlyFields) if (isSet(c[k])) out.push(forbidden(`${idx}.${k}`, 'may not be set for init containers without restartPolicy=Always'));
    }
    if (list(c.resizePolicy).length > 0) out.push(invalid(`${idx}.resizePolicy`, goResizePolicies(c.resizePolicy), 'must not be set for init containers'));
  });
  return out;
}

/** []core.ContainerResizePolicy as json.Marshal renders the internal type (Go field names). */
const goResizePolicies = (policies: unknown): unknown =>
  list(policies).map((p) => ({ ResourceName: str(obj(p)?.resourceName), RestartPolicy: str(obj(p)?.restartPolicy) }));

/** ValidatePodCreate's pod-only container check, run after the whole spec: no whitespace around the image. */
export function validateImageWhitespace(containers: readonly unknown[], f: string): Violation[] {
  const out: Violation[] = [];
  containers.forEach((raw, i) => {
    const image = str(obj(raw)?.image);
    if (image.trim() !== image) out.push(invalid(`${f}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return out;
}
