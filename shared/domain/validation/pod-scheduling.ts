// Where a pod may run, as Kubernetes 1.32 validates it in a pod spec (pkg/apis/core/validation: ValidateTolerations,
// validateAffinity, validateTopologySpreadConstraints), with OpenKruise's PodValidationOptions: invalid label values
// are allowed in pod-affinity selectors, topology-spread label selectors are not validated.
import type { LabelSelector } from '../../api/meta.js';
import type { Violation } from '../../errors.js';
import { duplicate, forbidden, invalid, isSet, list, notSupported, num, obj, required, str, type Json } from './field-errors.js';
import { isValidLabelValue, nameIsDNSSubdomain, isDNS1123Label } from './names.js';
import { validateLabelName, validateLabelSelector } from './selector-validation.js';

const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateTolerations(tolerations: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  list(tolerations).forEach((raw, i) => {
    const t = obj(raw) ?? {};
    const idx = `${f}[${i}]`;
    const key = str(t.key);
    const op = str(t.operator);
    const effect = str(t.effect);
    if (key) out.push(...validateLabelName(key, `${idx}.key`));
    if (!key && op !== 'Exists') out.push(invalid(`${idx}.operator`, op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (isSet(t.tolerationSeconds) && effect !== 'NoExecute') out.push(invalid(`${idx}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (op === 'Equal' || op === '') {
      const errs = isValidLabelValue(str(t.value));
      if (errs.length) out.push(invalid(`${idx}.operator`, str(t.value), errs.join(';')));
    } else if (op === 'Exists') {
      if (str(t.value)) out.push(invalid(`${idx}.operator`, str(t.value), "value must be empty when `operator` is 'Exists'"));
    } else out.push(notSupported(`${idx}.operator`, op, ['Equal', 'Exists']));
    if (effect && !effects.includes(effect)) out.push(notSupported(`${idx}.effect`, effect, effects));
  });
  return out;
}

function validateNodeSelectorRequirement(r: Json, f: string, allowInvalidLabelValue: boolean): Violation[] {
  const out: Violation[] = [];
  const values = list(r.values);
  const op = str(r.operator);
  if (op === 'In' || op === 'NotIn') {
    if (values.length === 0) out.push(required(`${f}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length > 0) out.push(forbidden(`${f}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (op === 'Gt' || op === 'Lt') {
    if (values.length !== 1) out.push(required(`${f}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else out.push(invalid(`${f}.operator`, op, 'not a valid selector operator'));
  out.push(...validateLabelName(str(r.key), `${f}.key`));
  // A pod's node affinity always allows invalid label values (Kubernetes' TODO keeps it true); a WorkloadSpread
  // subset's required term does not (ValidateNodeSelectorTerm(term, false, …)).
  if (!allowInvalidLabelValue) list(r.values).forEach((v, i) => { for (const m of isValidLabelValue(str(v))) out.push(invalid(`${f}.values[${i}]`, str(v), m)); });
  return out;
}

/** Field selectors of node affinity: only metadata.name, one value for In/NotIn. */
function validateNodeFieldSelectorRequirement(r: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const op = str(r.operator);
  const values = list(r.values);
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) out.push(required(`${f}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else out.push(invalid(`${f}.operator`, op, 'not a valid selector operator'));
  if (str(r.key) !== 'metadata.name') out.push(invalid(`${f}.key`, str(r.key), 'not a valid field selector key'));
  else values.forEach((v, i) => { for (const m of nameIsDNSSubdomain(str(v), false)) out.push(invalid(`${f}.values[${i}]`, str(v), m)); });
  return out;
}

/** Kubernetes ValidateNodeSelectorTerm(term, allowInvalidLabelValue, f). */
export function validateNodeSelectorTerm(term: Json, f: string, allowInvalidLabelValue = true): Violation[] {
  return [
    ...list(term.matchExpressions).flatMap((r, j) => validateNodeSelectorRequirement(obj(r) ?? {}, `${f}.matchExpressions[${j}]`, allowInvalidLabelValue)),
    ...list(term.matchFields).flatMap((r, j) => validateNodeFieldSelectorRequirement(obj(r) ?? {}, `${f}.matchFields[${j}]`)),
  ];
}

function validateNodeAffinity(na: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const req = obj(na.requiredDuringSchedulingIgnoredDuringExecution);
  if (req) {
    const tf = `${f}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const terms = list(req.nodeSelectorTerms);
    if (terms.length === 0) out.push(required(tf, 'must have at least one node selector term'));
    else terms.forEach((t, i) => out.push(...validateNodeSelectorTerm(obj(t) ?? {}, `${tf}[${i}]`)));
  }
  list(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw, i) => {
    const t = obj(raw) ?? {};
    const pf = `${f}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const w = num(t.weight);
    if (w <= 0 || w > 100) out.push(invalid(`${pf}.weight`, w, 'must be in the range 1-100'));
    out.push(...validateNodeSelectorTerm(obj(t.preference) ?? {}, `${pf}.preference`));
  });
  return out;
}

function selectorKeys(sel: LabelSelector | undefined): Set<string> {
  return new Set([...Object.keys(sel?.matchLabels ?? {}), ...(sel?.matchExpressions ?? []).map((e) => e.key)]);
}

function validateLabelKeys(keys: string[], sel: LabelSelector | undefined, f: string): Violation[] {
  if (keys.length === 0) return [];
  if (!sel) return [forbidden(f, 'must not be specified when labelSelector is not set')];
  return keys.flatMap((k, i) => validateLabelName(k, `${f}[${i}]`));
}

function validatePodAffinityTerm(t: Json, f: string): Violation[] {
  const sel = obj(t.labelSelector) as LabelSelector | undefined;
  const out = [
    ...validateLabelSelector(sel, `${f}.labelSelector`, true),
    ...validateLabelSelector(obj(t.namespaceSelector) as LabelSelector | undefined, `${f}.namespaceSelector`, true),
  ];
  for (const ns of list(t.namespaces)) for (const m of isDNS1123Label(str(ns))) out.push(invalid(`${f}.namespace`, str(ns), m));
  const match: string[] = list(t.matchLabelKeys).map(str);
  const mismatch: string[] = list(t.mismatchLabelKeys).map(str);
  out.push(...validateLabelKeys(match, sel, `${f}.matchLabelKeys`), ...validateLabelKeys(mismatch, sel, `${f}.mismatchLabelKeys`));
  if (sel) {
    // Only a key repeated among the selector's expressions after a matchLabels entry is reported (as upstream).
    const seen = new Set(Object.keys(sel.matchLabels ?? {}));
    for (const e of sel.matchExpressions ?? []) {
      const i = match.lastIndexOf(e.key);
      if (i >= 0 && seen.has(e.key)) out.push(invalid(`${f}[${i}]`, e.key, 'exists in both matchLabelKeys and labelSelector'));
      seen.add(e.key);
    }
  }
  const mm = new Set(mismatch);
  match.forEach((k, i) => { if (mm.has(k)) out.push(invalid(`${f}.matchLabelKeys[${i}]`, k, 'exists in both matchLabelKeys and mismatchLabelKeys')); });
  const topologyKey = str(t.topologyKey);
  if (topologyKey === '') out.push(required(`${f}.topologyKey`, 'can not be empty'));
  out.push(...validateLabelName(topologyKey, `${f}.topologyKey`));
  return out;
}

function validatePodAffinity(pa: Json, f: string): Violation[] {
  const out: Violation[] = [];
  list(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
    out.push(...validatePodAffinityTerm(obj(t) ?? {}, `${f}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)));
  list(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw, j) => {
    const t = obj(raw) ?? {};
    const pf = `${f}.preferredDuringSchedulingIgnoredDuringExecution[${j}]`;
    const w = num(t.weight);
    if (w <= 0 || w > 100) out.push(invalid(`${pf}.weight`, w, 'must be in the range 1-100'));
    out.push(...validatePodAffinityTerm(obj(t.podAffinityTerm) ?? {}, `${pf}.podAffinityTerm`));
  });
  return out;
}

export function validateAffinity(raw: unknown, f: string): Violation[] {
  const a = obj(raw);
  if (!a) return [];
  return [
    ...(obj(a.nodeAffinity) ? validateNodeAffinity(obj(a.nodeAffinity)!, `${f}.nodeAffinity`) : []),
    ...(obj(a.podAffinity) ? validatePodAffinity(obj(a.podAffinity)!, `${f}.podAffinity`) : []),
    ...(obj(a.podAntiAffinity) ? validatePodAffinity(obj(a.podAntiAffinity)!, `${f}.podAntiAffinity`) : []),
  ];
}

const notPositive = 'must be greater than zero';
const scheduleActions = ['DoNotSchedule', 'ScheduleAnyway'];
const inclusionPolicies = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(constraints: unknown, f: string): Violation[] {
  const out: Violation[] = [];
  const all = list(constraints).map((c) => obj(c) ?? {});
  const pair = (c: Json) => `${str(c.topologyKey)}\u0000${str(c.whenUnsatisfiable)}`;
  // Kubernetes reports a pair at each constraint that a later one repeats: one pass from the end, not one per constraint.
  const repeatedLater: boolean[] = [];
  const later = new Set<string>();
  for (let i = all.length - 1; i >= 0; i--) {
    repeatedLater[i] = later.has(pair(all[i]!));
    later.add(pair(all[i]!));
  }
  all.forEach((c, i) => {
    const idx = `${f}[${i}]`;
    const maxSkew = num(c.maxSkew);
    if (maxSkew <= 0) out.push(invalid(`${idx}.maxSkew`, maxSkew, notPositive));
    if (str(c.topologyKey) === '') out.push(required(`${idx}.topologyKey`, 'can not be empty'));
    const when = str(c.whenUnsatisfiable);
    if (!scheduleActions.includes(when)) out.push(notSupported(`${idx}.whenUnsatisfiable`, when, scheduleActions));
    if (repeatedLater[i]) {
      out.push(duplicate(`${idx}.{topologyKey, whenUnsatisfiable}`, `{${str(c.topologyKey)}, ${when}}`));
    }
    if (isSet(c.minDomains)) {
      const md = num(c.minDomains);
      if (md <= 0) out.push(invalid(`${idx}.minDomains`, md, notPositive));
      if (when !== 'DoNotSchedule') out.push(invalid(`${idx}.minDomains`, md, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`));
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (isSet(c[k]) && !inclusionPolicies.includes(str(c[k]))) out.push(notSupported(`${idx}.${k}`, str(c[k]), inclusionPolicies));
    }
    const keys: string[] = list(c.matchLabelKeys).map(str);
    if (keys.length > 0) {
      const sel = obj(c.labelSelector) as LabelSelector | undefined;
      if (!sel) out.push(forbidden(`${idx}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
      const inSel = selectorKeys(sel);
      keys.forEach((k, j) => {
        out.push(...validateLabelName(k, `${idx}.matchLabelKeys[${j}]`));
        if (inSel.has(k)) out.push(invalid(`${idx}.matchLabelKeys[${j}]`, k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
  });
  return out;
}
