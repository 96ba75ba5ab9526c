// Kubernetes 1.32's ValidatePodSpec (pkg/apis/core/validation) for a pod spec that is not a pod (a workload's
// template: no pod metadata, so no ephemeral-PVC name checks), with OpenKruise's DefaultPodValidationOptions
// (pkg/webhook/util/pod_validation.go: invalid pod-deletion-cost and indivisible hugepages allowed, invalid label
// values allowed in selectors, topology-spread selectors unchecked, ResourceIsPod false). The rules run in upstream's
// order; the container and volume rules are the ones SidecarSet validation uses, given this spec's own
// terminationGracePeriodSeconds, restartPolicy and hostUsers.
import type { Violation } from '../../errors.js';
import { validateResourceRequirements } from './container-resources.js';
import { validateContainers, validateInitContainers } from './containers.js';
import { duplicate, inclusiveRangeError, invalid, isSet, list, notSupported, num, obj, required, str, type Json } from './field-errors.js';
import { isDNS1123Label, isQualifiedName, nameIsDNSSubdomain } from './names.js';
import { validateDNSConfig, validateDNSPolicy, validateHostAliases } from './pod-dns.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './pod-scheduling.js';
import { validateHostUsers, validateOS, validatePodSecurityContext, validateWindowsHostProcessPod } from './pod-security.js';
import { validateLabels } from './selector-validation.js';
import { validateVolumes } from './volumes/index.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const MAX_INT32 = 2147483647;

function validateHostNetworkDeps(spec: Json, f: string): Violation[] {
  if (spec.hostNetwork !== true) return [];
  const out: Violation[] = [];
  list(spec.containers).forEach((c, i) => list(obj(c)?.ports).forEach((raw, j) => {
    const p = obj(raw) ?? {};
    // Not a pod: an unset hostPort (0) is defaulted later, any other value must equal containerPort.
    const hp = num(p.hostPort);
    if (hp !== 0 && hp !== num(p.containerPort)) out.push(invalid(`${f}.containers[${i}].ports[${j}].hostPort`, hp, 'must match `containerPort` when `hostNetwork` is true'));
  }));
  return out;
}

function validateRestartPolicy(spec: Json, f: string): Violation[] {
  const p = str(spec.restartPolicy);
  if (p === '') return [required(f)];
  return restartPolicies.includes(p) ? [] : [notSupported(f, p, restartPolicies)];
}

function validateImagePullSecrets(secrets: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  list(secrets).forEach((raw, i) => {
    const s = obj(raw) ?? {};
    const extra = Object.keys(s).filter((k) => k !== 'name' && isSet(s[k]));
    // The internal LocalObjectReference has only a name: anything else is printed as the Go struct.
    if (extra.length > 0) out.push({ ...invalid(`${f}[${i}]`, s, 'only name may be set'), goValue: `core.LocalObjectReference{Name:${JSON.stringify(str(s.name))}}` });
  });
  return out;
}

function validateSchedulingGates(gates: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  list(gates).forEach((raw, i) => {
    const name = str(obj(raw)?.name);
    for (const m of isQualifiedName(name)) out.push(invalid(`${f}[${i}]`, name, m));
    if (seen.has(name)) out.push(duplicate(`${f}[${i}]`, name));
    seen.add(name);
  });
  return out;
}

const names = (v: string, f: string, msgs: string[]) => msgs.map((m) => invalid(f, v, m));

/** core.PodResourceClaim as %#v prints it; a set pointer shows as an address Go picks, here a fixed stand-in. */
const goClaim = (c: Json) => `core.PodResourceClaim{Name:${JSON.stringify(str(c.name))}, ResourceClaimName:${typeof c.resourceClaimName === 'string' ? '(*string)(0xc000000000)' : '(*string)(nil)'}, ResourceClaimTemplateName:${typeof c.resourceClaimTemplateName === 'string' ? '(*string)(0xc000000000)' : '(*string)(nil)'}}`;

/** validatePodResourceClaims (no pod metadata: the static-pod rule cannot apply). */
function validatePodResourceClaims(claims: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  list(claims).forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const name = str(c.name);
    if (name === '') out.push(required(`${idx}.name`));
    else if (seen.has(name)) out.push(duplicate(`${idx}.name`, name));
    else {
      out.push(...names(name, `${idx}.name`, isDNS1123Label(name)));
      seen.add(name);
    }
    const byName = typeof c.resourceClaimName === 'string';
    const byTemplate = typeof c.resourceClaimTemplateName === 'string';
    if (byName && byTemplate) out.push({ ...invalid(idx, c, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'), goValue: goClaim(c) });
    if (!byName && !byTemplate) out.push({ ...invalid(idx, c, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'), goValue: goClaim(c) });
    if (byName) out.push(...names(c.resourceClaimName, `${idx}.resourceClaimName`, nameIsDNSSubdomain(c.resourceClaimName, false)));
    if (byTemplate) out.push(...names(c.resourceClaimTemplateName, `${idx}.resourceClaimTemplateName`, nameIsDNSSubdomain(c.resourceClaimTemplateName, false)));
  });
  return out;
}

/** ValidatePodSpec(spec, nil, f, DefaultPodValidationOptions). */
export function validateTemplatePodSpec(raw: unknown, f: string): Violation[] {
  const spec = obj(raw) ?? {};
  const out: Violation[] = [];
  const grace = spec.terminationGracePeriodSeconds;
  if (!isSet(grace)) out.push(required(`${f}.terminationGracePeriodSeconds`));
  const containers: unknown[] = list(spec.containers);
  const { byName, errors } = validateVolumes(spec.volumes, `${f}.volumes`, undefined);
  out.push(...errors);
  out.push(...validatePodResourceClaims(spec.resourceClaims, `${f}.resourceClaims`));
  const podClaimNames = list(spec.resourceClaims).map((c) => str(obj(c)?.name)).filter((n) => n !== '');
  const ctx = { volumes: byName, gracePeriod: isSet(grace) ? num(grace) : undefined, hostUsers: spec.hostUsers !== false, restartPolicy: str(spec.restartPolicy), podClaimNames };
  out.push(...validateContainers(containers, ctx, `${f}.containers`));
  out.push(...validateInitContainers(list(spec.initContainers), containers, ctx, `${f}.initContainers`));
  out.push(...validateHostNetworkDeps(spec, f));
  out.push(...validateRestartPolicy(spec, `${f}.restartPolicy`));
  out.push(...validateDNSPolicy(spec, `${f}.dnsPolicy`));
  out.push(...validateLabels(obj(spec.nodeSelector), `${f}.nodeSelector`));
  out.push(...validatePodSecurityContext(spec, f));
  out.push(...validateImagePullSecrets(spec.imagePullSecrets, `${f}.imagePullSecrets`));
  out.push(...validateAffinity(spec.affinity, `${f}.affinity`));
  out.push(...validateDNSConfig(spec, `${f}.dnsConfig`));
  list(spec.readinessGates).forEach((g, i) => {
    const t = str(obj(g)?.conditionType);
    out.push(...names(t, `${f}.readinessGates[${i}].conditionType`, isQualifiedName(t)));
  });
  out.push(...validateSchedulingGates(spec.schedulingGates, `${f}.schedulingGates`));
  out.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${f}.topologySpreadConstraints`));
  out.push(...validateWindowsHostProcessPod(spec, f));
  out.push(...validateHostUsers(spec, f));
  const sa = str(spec.serviceAccountName);
  if (sa) out.push(...names(sa, `${f}.serviceAccountName`, nameIsDNSSubdomain(sa, false)));
  const node = str(spec.nodeName);
  if (node) out.push(...names(node, `${f}.nodeName`, nameIsDNSSubdomain(node, false)));
  if (isSet(spec.activeDeadlineSeconds)) {
    const v = num(spec.activeDeadlineSeconds);
    if (v < 1 || v > MAX_INT32) out.push(invalid(`${f}.activeDeadlineSeconds`, v, inclusiveRangeError(1, MAX_INT32)));
  }
  for (const k of ['hostname', 'subdomain']) {
    const v = str(spec[k]);
    if (v) out.push(...names(v, `${f}.${k}`, isDNS1123Label(v)));
  }
  out.push(...validateTolerations(spec.tolerations, `${f}.tolerations`));
  out.push(...validateHostAliases(spec.hostAliases, `${f}.hostAliases`));
  const pc = str(spec.priorityClassName);
  if (pc) out.push(...names(pc, `${f}.priorityClassName`, nameIsDNSSubdomain(pc, false)));
  if (typeof spec.runtimeClassName === 'string') out.push(...names(spec.runtimeClassName, `${f}.runtimeClassName`, nameIsDNSSubdomain(spec.runtimeClassName, false)));
  if (isSet(spec.preemptionPolicy)) {
    const p = str(spec.preemptionPolicy);
    if (p === '') out.push(required(`${f}.preemptionPolicy`));
    else if (p !== 'PreemptLowerPriority' && p !== 'Never') out.push(notSupported(`${f}.preemptionPolicy`, p, ['PreemptLowerPriority', 'Never']));
  }
  // overhead is checked as a container's limits would be; pod-level `resources` only with PodLevelResources (off).
  if (isSet(spec.overhead)) out.push(...validateResourceRequirements({ limits: spec.overhead }, `${f}.overhead`));
  out.push(...validateOS(spec, f));
  return out;
}
