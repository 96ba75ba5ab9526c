// CloneSet validation as OpenKruise v1.9.0's validating webhook (spec/cloneset.md §4 A-C):
// field errors in upstream's order and wording. Pure: pods named in podsToDelete come through `ctx.getPod`.
import fjp from 'fast-json-patch';
import type { CloneSet } from '../../api/cloneset.js';
import type { IntOrString, LabelSelector, Pod } from '../../api/meta.js';
import type { UpdatePriorityStrategy } from '../../api/sidecarset.js';
import type { Violation } from '../../errors.js';
import { matchesLabelSelector } from '../label-selector.js';
import { normalizedTemplate } from '../cloneset/revision.js';
import { isDNS1123Subdomain } from './names.js';
import { validatePodTemplateSpec } from './pod-template.js';
import { labelSelectorConversionError, validateLabelSelector } from './selector-validation.js';
import { deepEqual } from './sidecarset-conflicts.js';
import { scaledValue } from '../int-or-percent.js';

export interface CloneSetValidationContext {
  /** The pod of that name in the CloneSet's namespace, undefined when it does not exist. */
  getPod(namespace: string, name: string): Pod | undefined;
}

const goQuote = (s: string) => JSON.stringify(s);
export const goStringMap = (m: Record<string, string> | undefined | null): string =>
  m ? `map[string]string{${Object.keys(m).sort().map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`).join(', ')}}` : 'map[string]string(nil)';
const goStringSlice = (a: readonly string[]) => `[]string{${a.map(goQuote).join(', ')}}`;
// field.Invalid of a *IntOrString: nil prints null, else the struct's %#v (its String method needs a pointer).
const goIntOrString = (v: IntOrString | undefined | null) => v === undefined || v === null ? 'null' :
  typeof v === 'string' ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}` : `intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`;
function goSelector(s: LabelSelector): string {
  const ml = s.matchLabels ? goStringMap(s.matchLabels) : 'map[string]string(nil)';
  const me = s.matchExpressions ? `[]v1.LabelSelectorRequirement{${s.matchExpressions.length ? '…' : ''}}` : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`;
}

const invalid = (field: string, value: unknown, detail: string, goValue?: string): Violation => ({ field, type: 'Invalid value', value, detail, ...(goValue ? { goValue } : {}) });

function validateSelectorAndTemplate(cs: CloneSet, out: Violation[]): void {
  const spec = cs.spec ?? ({} as NonNullable<CloneSet['spec']>);
  const sel = spec.selector;
  if (!sel) out.push({ field: 'spec.selector', type: 'Required value', detail: '' });
  else {
    out.push(...validateLabelSelector(sel, 'spec.selector'));
    if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      out.push(invalid('spec.selector', sel, 'empty selector is invalid for cloneset', goSelector(sel)));
    }
  }
  if (sel && labelSelectorConversionError(sel)) {
    out.push(invalid('spec.selector', sel, '', goSelector(sel)));
    return;
  }
  const labels = spec.template?.metadata?.labels;
  // A nil selector selects nothing, so it never matches the template either.
  if (!sel || !matchesLabelSelector(sel, labels ?? {})) {
    out.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`', goStringMap(labels)));
  }
  // Kubernetes' pod template rules, with one PVC volume per volumeClaimTemplate added as upstream does (a clash is a
  // duplicate volume name; mounts of claim volumes resolve).
  const podSpec = spec.template?.spec;
  const claimVolumes = (spec.volumeClaimTemplates ?? []).map((t) => ({ name: t.metadata?.name ?? '', persistentVolumeClaim: { claimName: t.metadata?.name ?? '' } }));
  const checked = claimVolumes.length ? { ...(podSpec ?? {}), volumes: [...(podSpec?.volumes ?? []), ...claimVolumes] } : podSpec;
  out.push(...validatePodTemplateSpec({ metadata: spec.template?.metadata, spec: checked }, 'spec.template'));
  const rp = podSpec?.restartPolicy;
  if (rp && rp !== 'Always') out.push({ field: 'spec.template.spec.restartPolicy', type: 'Unsupported value', value: rp, detail: 'supported values: "Always"' });
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    out.push({ field: 'spec.template.spec.activeDeadlineSeconds', type: 'Forbidden', detail: 'activeDeadlineSeconds in cloneset is not Supported' });
  }
}

function validateScaleStrategy(cs: CloneSet, old: CloneSet | undefined, ctx: CloneSetValidationContext, out: Violation[]): void {
  const names = cs.spec?.scaleStrategy?.podsToDelete ?? [];
  const seen = new Set<string>();
  const dups: string[] = [];
  for (const n of names) { if (seen.has(n) && !dups.includes(n)) dups.push(n); seen.add(n); }
  const f = 'spec.scaleStrategy.podsToDelete';
  if (dups.length) { out.push(invalid(f, names, `duplicated items [${dups.join(' ')}]`, goStringSlice(names))); return; }
  const before = new Set(old?.spec?.scaleStrategy?.podsToDelete ?? []);
  const ns = cs.metadata?.namespace ?? '';
  // Upstream walks a sets.String: each new name once, in sorted order.
  for (const n of [...new Set(names)].sort()) {
    if (before.has(n)) continue;
    const pod = ctx.getPod(ns, n);
    if (!pod) out.push(invalid(f, n, `find pod ${n} failed: pods ${goQuote(n)} not found`));
    else if (pod.metadata?.deletionTimestamp) out.push(invalid(f, n, `find pod ${n} already terminating`));
    else if (!isControlledBy(pod, cs.metadata?.uid)) out.push(invalid(f, n, `find pod ${n} owner is not this CloneSet`));
  }
}

/** IntOrString.String() as the webhook quotes a value it could not read: "<nil>" for a nil pointer. */
const intOrStringText = (v: IntOrString | undefined | null) => (v === undefined || v === null ? '<nil>' : String(v));
const MIN_INT64 = -(2n ** 63n);
const int64Text = (v: bigint) => v.toString();

/** metav1.GetControllerOf(pod) is set and carries this UID (a pod with no controller is nobody's, even on CREATE). */
function isControlledBy(pod: Pod, uid: string | undefined): boolean {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  return owner !== undefined && owner.uid === uid;
}

function validateUpdateStrategy(cs: CloneSet, out: Violation[]): void {
  const replicas = cs.spec?.replicas ?? 1;
  const u = cs.spec?.updateStrategy ?? {};
  const f = 'spec.updateStrategy';
  if (u.type !== 'ReCreate' && u.type !== 'InPlaceIfPossible' && u.type !== 'InPlaceOnly') {
    out.push(invalid(`${f}.type`, u.type ?? '', "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"));
  }
  // v1.9.0 reads all three with GetScaledValueFromIntOrPercent: a string must be a percentage, which may be fractional.
  const partition = scaledValue(u.partition, replicas, true);
  if ('error' in partition) out.push(invalid(`${f}.partition`, intOrStringText(u.partition), `failed GetScaledValueFromIntOrPercent for partition: ${partition.error}`));
  const p = 'value' in partition ? partition.value : 0n;
  if (p < 0n) out.push(invalid(`${f}.partition`, Number(p), 'must be greater than or equal to 0', p === MIN_INT64 || p < -(2n ** 53n) ? int64Text(p) : undefined));
  validatePriority(u.priorityStrategy, out);
  validateScatter(u.scatterStrategy, out);
  let un = 0n;
  if (u.maxUnavailable !== undefined && u.maxUnavailable !== null) {
    const r = scaledValue(u.maxUnavailable, replicas, true);
    if ('error' in r) out.push(invalid(`${f}.maxUnavailable`, intOrStringText(u.maxUnavailable), `failed GetScaledValueFromIntOrPercent for maxUnavailable: ${r.error}`));
    else un = r.value;
  }
  let su = 0n;
  if (u.maxSurge !== undefined && u.maxSurge !== null) {
    const r = scaledValue(u.maxSurge, replicas, true);
    if ('error' in r) out.push(invalid(`${f}.maxSurge`, intOrStringText(u.maxSurge), `failed GetScaledValueFromIntOrPercent for maxSurge: ${r.error}`));
    else su = r.value;
    if (u.type === 'InPlaceOnly' && su > 0n) out.push(invalid(`${f}.maxSurge`, intOrStringText(u.maxSurge), 'can not use maxSurge with strategy type InPlaceOnly'));
  }
  if (replicas > 0 && un < 1n && su < 1n) {
    out.push(invalid(`${f}.maxUnavailable`, u.maxUnavailable, 'maxUnavailable and maxSurge should not both be less than 1', goIntOrString(u.maxUnavailable)));
  }
}

/** v1.9.0: progressDeadlineSeconds ≥ 0 and, unless it is math.MaxInt32 ("no deadline"), above minReadySeconds. */
function validateProgressDeadline(cs: CloneSet, out: Violation[]): void {
  const d = cs.spec?.progressDeadlineSeconds;
  if (d === undefined || d === null) return;
  const f = 'spec.progressDeadlineSeconds';
  if (d < 0) out.push(invalid(f, d, 'must be greater than or equal to 0'));
  if (d !== 2147483647 && d <= (cs.spec?.minReadySeconds ?? 0)) out.push(invalid(f, d, 'must be greater than minReadySeconds'));
}

function validatePriority(p: UpdatePriorityStrategy | undefined, out: Violation[]): void {
  if (!p) return;
  const f = 'spec.updateStrategy.priorityStrategy';
  const req = (detail: string) => out.push({ field: f, type: 'Required value', detail });
  if (p.weightPriority?.length && p.orderPriority?.length) { req('only one of weightPriority and orderPriority can be used'); return; }
  for (const w of p.weightPriority ?? []) {
    if (w.weight < 0 || w.weight > 100) { req('weight must be valid number in the range 1-100'); return; }
    if (!w.matchSelector || Object.keys(w.matchSelector).length === 0) { req('selector can not be empty'); return; }
    const err = labelSelectorConversionError(w.matchSelector);
    if (err) { req(`invalid selector ${err}`); return; }
  }
  for (const o of p.orderPriority ?? []) if (!o.orderedKey) { req('order key can not be empty'); return; }
}

function validateScatter(terms: { key: string; value: string }[] | undefined, out: Violation[]): void {
  const seen = new Set<string>();
  for (const t of terms ?? []) {
    const f = 'spec.updateStrategy.scatterStrategy';
    if (!t.key || !t.value) { out.push({ field: f, type: 'Required value', detail: `${!t.key ? 'key' : 'value'} should not be empty` }); return; }
    const id = `${t.key}=${t.value}`;
    if (seen.has(id)) { out.push({ field: f, type: 'Invalid value', value: t, goValue: `v1alpha1.UpdateScatterTerm{Key:${goQuote(t.key)}, Value:${goQuote(t.value)}}`, detail: `duplicated key=${t.key} value=${t.value}` }); return; }
    seen.add(id);
  }
}

/** validateCloneSet: ObjectMeta, then the spec rules of §4 A in order. */
export function validateCloneSetCreate(cs: CloneSet, old: CloneSet | undefined, ctx: CloneSetValidationContext): Violation[] {
  const out: Violation[] = [];
  const name = cs.metadata?.name ?? '';
  if (name) for (const detail of isDNS1123Subdomain(name)) out.push(invalid('metadata.name', name, detail));
  const replicas = cs.spec?.replicas;
  if (replicas !== undefined && replicas < 0) out.push(invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
  validateSelectorAndTemplate(cs, out);
  validateScaleStrategy(cs, old, ctx, out);
  validateUpdateStrategy(cs, out);
  validateProgressDeadline(cs, out);
  return dedupe(out);
}

const MUTABLE = ['replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates', 'revisionHistoryLimit'];

/** validateCloneSetUpdate: B (only the listed spec fields change), C (InPlaceOnly: images only), then A. */
export function validateCloneSet(cs: CloneSet, old: CloneSet | undefined, ctx: CloneSetValidationContext): Violation[] {
  if (!old) return validateCloneSetCreate(cs, undefined, ctx);
  const out: Violation[] = [];
  const strip = (c: CloneSet) => Object.fromEntries(Object.entries(c.spec ?? {}).filter(([k]) => !MUTABLE.includes(k)));
  if (!deepEqual(strip(cs), strip(old))) {
    out.push({ field: 'spec', type: 'Forbidden', detail: "updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden" });
  }
  if (cs.spec?.updateStrategy?.type === 'InPlaceOnly') {
    const ops = fjp.compare(normalizedTemplate(old).spec ?? {}, normalizedTemplate(cs).spec ?? {});
    const bad = ops.find((op) => !(op.op === 'replace' && /^\/containers\/\d+\/image$/.test(op.path)));
    if (bad) out.push({ field: 'spec', type: 'Forbidden', detail: `only allowed to update images in spec for InPlaceOnly, but found ${bad.op} ${bad.path}` });
  }
  return dedupe([...out, ...validateCloneSetCreate(cs, old, ctx)]);
}

function dedupe(vs: Violation[]): Violation[] {
  const seen = new Set<string>();
  return vs.filter((v) => {
    const k = `${v.field}|${v.type}|${v.detail}|${v.goValue ?? JSON.stringify(v.value)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
