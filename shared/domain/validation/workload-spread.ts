// WorkloadSpread admission (spec/availability-guards.md §11): upstream's rules, messages and order. Pure: the
// handler gathers the namespace's other WorkloadSpreads and, when a subset has a patch, the target workload.
import type { IntOrString } from '../../api/meta.js';
import type { TargetReference, WorkloadSpread, WorkloadSpreadSubset } from '../../api/workload-spread.js';
import type { Violation } from '../../errors.js';
import { goQuote } from '../resources-policy/go-quote.js';
import { parseGroupVersion } from '../workloadspread/targets.js';
import { strategicMergePod } from '../workloadspread/strategic-merge.js';
import { invalid, list, obj, required, type Json } from './field-errors.js';
import { validateNodeSelectorTerm, validateTolerations } from './pod-scheduling.js';
import { validateTemplatePodSpec } from './pod-spec-full.js';
import { labelSelectorConversionError } from './selector-validation.js';
import { goIntOrString, goTargetFilter, goTargetRef } from './workload-spread-values.js';

export interface WorkloadSpreadValidationContext {
  /** The namespace's WorkloadSpreads (the one validated may be among them). */
  others: readonly WorkloadSpread[];
  /** The target workload when it exists (read only when some subset has a patch), with its pod template. */
  workload?: { template?: unknown; volumeClaimTemplates?: Array<{ metadata?: { name?: string } }> };
}

/** The groups each built-in kind may have (rule 3). */
const KIND_GROUPS: Record<string, readonly string[]> = {
  CloneSet: ['apps.kruise.io'], Deployment: ['apps'], ReplicaSet: ['apps'], Job: ['batch'], StatefulSet: ['apps', 'apps.kruise.io'],
};

/** The kinds whose template a patch is checked against (rule 10). */
export const PATCH_CHECKED_KINDS = Object.keys(KIND_GROUPS);

/** Rules 1–4: undefined when the ref is fine. */
function targetRefErrors(ref: TargetReference | undefined): Violation[] {
  if (!ref) return [required('spec.targetRef', 'no targetRef defined in WorkloadSpread')];
  if (!ref.apiVersion || !ref.kind || !ref.name) return [{ ...invalid('spec.targetRef', ref, 'empty TargetReference is not valid for WorkloadSpread.'), goValue: goTargetRef(ref) }];
  const groups = Object.hasOwn(KIND_GROUPS, ref.kind) ? KIND_GROUPS[ref.kind] : undefined;
  if (groups) {
    const gv = parseGroupVersion(ref.apiVersion);
    return gv && groups.includes(gv.group) ? [] : [{ ...invalid('spec.targetRef', ref, `TargetReference is not valid for ${ref.kind}.`), goValue: goTargetRef(ref) }];
  }
  // No custom-workload whitelist in kruise-ts (docs/compatibility.md): every other kind is not permitted.
  return [{ ...invalid('spec.targetRef', ref, "TargetReference's GroupKind is not permitted."), goValue: goTargetRef(ref) }];
}

/**
 * How many template bytes rule 10 may merge and validate per review: each patched subset costs one pass over the
 * workload's template, so a WorkloadSpread of many patched subsets over a large template would cost their product.
 * Past the budget the remaining subsets' patches are not checked (docs/compatibility.md, WorkloadSpread).
 */
export const PATCH_CHECK_BUDGET_BYTES = 32 * 1024 * 1024;

/** Rule 10: the subset patch merged into the workload's template must still be a valid pod spec. */
function patchErrors(subset: WorkloadSpreadSubset, ctx: WorkloadSpreadValidationContext, f: string): Violation[] {
  if (subset.patch === undefined || subset.patch === null || !ctx.workload) return [];
  const template = structuredClone(obj(ctx.workload.template) ?? {}) as Json;
  const spec = (template.spec = obj(template.spec) ?? {});
  for (const pvc of ctx.workload.volumeClaimTemplates ?? []) {
    const name = pvc.metadata?.name ?? '';
    spec.volumes = [...list(spec.volumes), { name, persistentVolumeClaim: { claimName: name } }];
  }
  let merged: Json;
  try {
    merged = strategicMergePod(template, subset.patch);
  } catch (err) {
    return [invalid(`${f}.patch`, JSON.stringify(subset.patch), `failed to merge patch: ${(err as Error).message}`)];
  }
  return validateTemplatePodSpec(merged.spec, `${f}.patch`);
}

const isPercentType = (v: IntOrString) => typeof v === 'string';
/** intstr.GetValueFromIntOrPercent(v, 100, true): every "%" removed, an integer required. */
const legacyValue = (v: IntOrString): number | undefined => (typeof v === 'number' ? v : /^[+-]?\d+$/.test(v.replaceAll('%', '')) ? Number(v.replaceAll('%', '')) : undefined);

/** Rules 5–15. */
function subsetErrors(ws: WorkloadSpread, ctx: WorkloadSpreadValidationContext): Violation[] {
  const subsets = ws.spec?.subsets ?? [];
  if (subsets.length === 0) return [required('spec.subsets', 'subsets number must >= 1 in WorkloadSpread')];
  const out: Violation[] = [];
  const names = new Set<string>();
  let sum = 0;
  let firstType: 'int' | 'percent' | undefined;
  const templateBytes = ctx.workload ? JSON.stringify(ctx.workload).length + 1 : 1;
  let patchBudget = Math.max(1, Math.floor(PATCH_CHECK_BUDGET_BYTES / templateBytes));
  for (const [i, s] of subsets.entries()) {
    const f = `spec.subsets[${i}]`;
    if (!s.name) out.push(invalid(`${f}.name`, '', ''));
    else {
      if (names.has(s.name)) out.push(invalid(`${f}.name`, s.name, `duplicated subset name ${s.name}`));
      names.add(s.name);
    }
    if (s.requiredNodeSelectorTerm) out.push(...validateNodeSelectorTerm(s.requiredNodeSelectorTerm as Json, `${f}.requiredNodeSelectorTerm`, false));
    // Kubernetes' path name, not the field's (§18 #15).
    (s.preferredNodeSelectorTerms ?? []).forEach((t, j) => {
      const pf = `${f}.preferredSchedulingTerms[${j}]`;
      const w = typeof t.weight === 'number' ? t.weight : 0;
      if (w <= 0 || w > 100) out.push(invalid(`${pf}.weight`, w, 'must be in the range 1-100'));
      out.push(...validateNodeSelectorTerm((t.preference ?? {}) as Json, `${pf}.preference`, true));
    });
    if (s.tolerations) out.push(...validateTolerations(s.tolerations, `${f}.tolerations`));
    if (s.patch !== undefined && s.patch !== null && patchBudget > 0) {
      patchBudget--;
      out.push(...patchErrors(s, ctx, f));
    }
    const max = s.maxReplicas;
    if (max === undefined || max === null) continue;
    const type = isPercentType(max) ? 'percent' : 'int';
    const bad = (detail: string) => ({ ...invalid(`${f}.maxReplicas`, max, detail), goValue: goIntOrString(max) });
    if (firstType === undefined) firstType = type;
    else if (type !== firstType) return [...out, bad('the maxReplicas type of all subsets must be the same')];
    if (ws.spec?.targetRef?.kind === 'StatefulSet' && type !== 'int') return [...out, bad('the maxReplicas type must be Int for StatefulSet')];
    const v = legacyValue(max);
    if (v === undefined || v < 0) return [...out, bad('maxReplicas is not valid for subset')];
    if (type === 'percent') {
      sum += v;
      if (sum > 100) return [...out, bad("the sum of all subset's maxReplicas exceeds 100% is no permitted")];
    }
  }
  const last = subsets[subsets.length - 1]!;
  if (firstType === 'percent' && sum < 100 && last.maxReplicas !== undefined && last.maxReplicas !== null) {
    const first = subsets[0]!.maxReplicas;
    out.push({ ...invalid('spec.subsets[0].maxReplicas', first, 'maxReplicas sum of all subsets must equal 100% when type is specified as percent'), goValue: first === undefined || first === null ? 'null' : goIntOrString(first) });
  }
  return out;
}

/** Rules 16–20. */
function strategyAndFilterErrors(ws: WorkloadSpread): Violation[] {
  const out: Violation[] = [];
  const strategy = ws.spec?.scheduleStrategy;
  const type = strategy?.type ?? '';
  if (type !== '' && type !== 'Fixed' && type !== 'Adaptive') out.push(invalid('spec.scheduleStrategy.type', type, "ScheduleStrategy's type is not valid"));
  const adaptive = strategy?.adaptive;
  if (adaptive) {
    const seconds = adaptive.rescheduleCriticalSeconds;
    const shown = seconds === undefined || seconds === null ? { goValue: 'null' } : {};
    if (type !== 'Adaptive') out.push({ ...invalid('spec.scheduleStrategy.type', seconds, "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy"), ...shown });
    const subsets = ws.spec?.subsets ?? [];
    const lastMax = subsets[subsets.length - 1]?.maxReplicas;
    if (subsets.length > 1 && lastMax !== undefined && lastMax !== null) {
      out.push({ ...invalid('spec.scheduleStrategy.adaptive', seconds, "the last subset's maxReplicas must be not specified when using adaptive scheduleStrategy"), ...shown });
    }
    // MaxScheduledFailedDuration (300 s) less 5, shared among the subsets but the last.
    const allowed = subsets.length > 1 ? Math.trunc(295 / (subsets.length - 1)) : 2147483647;
    if (typeof seconds === 'number' && (seconds < 0 || seconds > allowed)) {
      out.push(invalid('spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds', seconds, `rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > ${allowed} is not permitted`));
    }
  }
  const filter = ws.spec?.targetFilter;
  if (filter?.selector) {
    const err = labelSelectorConversionError(filter.selector);
    if (err) out.push({ ...invalid('spec.targetFilter', filter, err), goValue: goTargetFilter(filter) });
  }
  return out;
}

/** Rule 21: another WorkloadSpread of the namespace with the same target group, kind and name (the first only). */
function conflictErrors(ws: WorkloadSpread, others: readonly WorkloadSpread[]): Violation[] {
  const ref = ws.spec?.targetRef;
  if (!ref) return [];
  const group = parseGroupVersion(ref.apiVersion)?.group ?? '';
  for (const o of others) {
    if (o.metadata?.name === ws.metadata?.name) continue;
    const r = o.spec?.targetRef;
    if (r && (parseGroupVersion(r.apiVersion)?.group ?? '') === group && r.kind === ref.kind && r.name === ref.name) {
      return [{ ...invalid('spec.targetRef', ref, `ws.spec.targetRef is in conflict with other WorkloadSpread ${o.metadata?.name ?? ''}`), goValue: goTargetRef(ref) }];
    }
  }
  return [];
}

/** Rule 22: metadata that may not change, and the target's group, kind and name. */
function updateErrors(ws: WorkloadSpread, old: WorkloadSpread): Violation[] {
  const out: Violation[] = [];
  for (const k of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
    const a = ws.metadata?.[k];
    const b = old.metadata?.[k];
    if (String(a ?? '') !== String(b ?? '')) out.push({ ...invalid(`metadata.${k}`, a, 'field is immutable'), goValue: goQuote(String(a ?? '')) });
  }
  const ref = ws.spec?.targetRef;
  const prev = old.spec?.targetRef;
  if (ref && prev && ((parseGroupVersion(ref.apiVersion)?.group ?? '') !== (parseGroupVersion(prev.apiVersion)?.group ?? '') || ref.kind !== prev.kind || ref.name !== prev.name)) {
    out.push({ ...invalid('spec.targetRef', ref, 'change TargetReference is not permitted for WorkloadSpread'), goValue: goTargetRef(ref) });
  }
  return out;
}

/** Every violation in upstream's order: spec (targetRef, subsets, strategy, filter), conflict, then the update rules. */
export function validateWorkloadSpread(ws: WorkloadSpread, old: WorkloadSpread | undefined, ctx: WorkloadSpreadValidationContext): Violation[] {
  return [
    ...targetRefErrors(ws.spec?.targetRef),
    ...subsetErrors(ws, ctx),
    ...strategyAndFilterErrors(ws),
    ...conflictErrors(ws, ctx.others),
    ...(old ? updateErrors(ws, old) : []),
  ];
}
