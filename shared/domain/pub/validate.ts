// The PodUnavailableBudget validating webhook's checks (spec/availability-guards.md §2), in upstream's order and
// words. Pure: the other PUBs of the namespace are gathered by the caller. Errors are answered with 400.
import { isDeepStrictEqual } from 'node:util';
import type { IntOrString, LabelSelector } from '../../api/meta.js';
import {
  PubProtectOperationAnnotation, PubProtectTotalReplicasAnnotation, PUB_OPERATIONS, type PodUnavailableBudget, type PubTargetReference,
} from '../../api/pod-unavailable-budget.js';
import type { Violation } from '../../errors.js';
import { labelSelectorConversionError, validateLabelSelector } from '../validation/selector-validation.js';
import { isSelectorLooseOverlap } from './selector-overlap.js';

const q = (s: string | undefined | null) => JSON.stringify(s ?? '');
const goStringMap = (m: Record<string, string> | undefined) =>
  m ? `map[string]string{${Object.keys(m).sort().map((k) => `${q(k)}:${q(m[k])}`).join(', ')}}` : 'map[string]string(nil)';
const goStrings = (a: readonly string[] | undefined) => (a ? `[]string{${a.map(q).join(', ')}}` : '[]string(nil)');

export function goSelector(s: LabelSelector): string {
  const me = s.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions.map((e) => `v1.LabelSelectorRequirement{Key:${q(e.key)}, Operator:${q(e.operator)}, Values:${goStrings(e.values)}}`).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${me}}`;
}
export const goTargetRef = (t: PubTargetReference) => `v1alpha1.TargetReference{APIVersion:${q(t.apiVersion)}, Kind:${q(t.kind)}, Name:${q(t.name)}}`;
const goIntOrString = (v: IntOrString) => (typeof v === 'string' ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(v)}}` : `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`);

const internal = (field: string, detail: string): Violation => ({ field, type: 'Internal error', detail });
const required = (field: string, detail: string): Violation => ({ field, type: 'Required value', detail });
const invalid = (field: string, goValue: string, detail: string): Violation => ({ field, type: 'Invalid value', goValue, detail });

const INT32 = /^[+-]?\d+$/;
const isInt32 = (s: string) => INT32.test(s) && Number(s) >= -2147483648 && Number(s) <= 2147483647;

function validateMetadata(pub: PodUnavailableBudget): Violation[] {
  const out: Violation[] = [];
  const a = pub.metadata?.annotations ?? {};
  const ops = a[PubProtectOperationAnnotation];
  if (typeof ops === 'string') {
    for (const item of ops.split(',')) if (!(PUB_OPERATIONS as readonly string[]).includes(item)) out.push(internal('metadata', `annotation[${PubProtectOperationAnnotation}] is invalid`));
  }
  const total = a[PubProtectTotalReplicasAnnotation];
  if (typeof total === 'string' && !isInt32(total)) out.push(internal('metadata', `annotation[${PubProtectTotalReplicasAnnotation}] is invalid`));
  return out;
}

function validateIntOrPercent(v: IntOrString, field: string): Violation[] {
  if (typeof v === 'number') return v < 0 ? [invalid(field, String(v), 'must be greater than or equal to 0')] : [];
  if (!/^[0-9]+%$/.test(v)) {
    return [invalid(field, goIntOrString(v), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
  }
  return Number(v.slice(0, -1)) > 100 ? [invalid(field, goIntOrString(v), 'must not be greater than 100%')] : [];
}

function validateSpec(pub: PodUnavailableBudget): Violation[] {
  const out: Violation[] = [];
  const spec = { ...pub.spec, selector: pub.spec?.selector ?? undefined, targetRef: pub.spec?.targetRef ?? undefined };
  if (!spec.selector && !spec.targetRef) out.push(required('spec.selector, targetRef', 'no selector or targetRef defined in PodUnavailableBudget'));
  else if (spec.selector && spec.targetRef) out.push(required('spec.selector, targetRef', 'selector and targetRef are mutually exclusive'));
  else if (spec.targetRef) {
    const t = spec.targetRef;
    if (!t.apiVersion || !t.kind || !t.name) out.push(invalid('spec.TargetReference', goTargetRef(t), 'empty TargetReference is not valid for PodUnavailableBudget.'));
    if ((t.apiVersion ?? '').split('/').length > 2) out.push(invalid('spec.TargetReference', goTargetRef(t), `unexpected GroupVersion string: ${t.apiVersion}`));
  } else if (spec.selector) {
    const s = spec.selector;
    out.push(...validateLabelSelector(s, 'spec.selector'));
    if (Object.keys(s.matchLabels ?? {}).length + (s.matchExpressions?.length ?? 0) === 0) {
      out.push(invalid('spec.selector', goSelector(s), 'empty selector is not valid for PodUnavailableBudget.'));
    }
    if (labelSelectorConversionError(s) !== undefined) out.push(invalid('spec.selector', goSelector(s), ''));
  }
  const max = spec.maxUnavailable;
  const min = spec.minAvailable;
  const isSet = (v: unknown) => v !== undefined && v !== null;
  if (!isSet(max) && !isSet(min)) out.push(required('spec.maxUnavailable, minAvailable', 'no maxUnavailable or minAvailable defined in PodUnavailableBudget'));
  else if (isSet(max) && isSet(min)) out.push(required('spec.maxUnavailable, minAvailable', 'maxUnavailable and minAvailable are mutually exclusive'));
  else if (isSet(max)) out.push(...validateIntOrPercent(max!, 'spec.maxUnavailable'));
  else out.push(...validateIntOrPercent(min!, 'spec.minAvailable'));
  return out;
}

const groupOf = (apiVersion: string | undefined) => { const v = apiVersion ?? ''; const i = v.indexOf('/'); return i < 0 ? '' : v.slice(0, i); };

/** The first other PUB of the namespace this one conflicts with (same target workload, or loosely overlapping selectors). */
function conflict(pub: PodUnavailableBudget, others: readonly PodUnavailableBudget[]): Violation[] {
  const mine = pub.spec ?? {};
  for (const o of others) {
    if (o.metadata?.name === pub.metadata?.name) continue;
    const theirs = o.spec ?? {};
    const name = o.metadata?.name ?? '';
    if (mine.targetRef && theirs.targetRef) {
      const a = mine.targetRef;
      const b = theirs.targetRef;
      if (groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name) {
        return [invalid('spec.targetReference', goTargetRef(a), `pub.spec.targetReference is in conflict with other PodUnavailableBudget ${name}`)];
      }
    } else if (mine.selector && theirs.selector && isSelectorLooseOverlap(mine.selector, theirs.selector)) {
      return [invalid('spec.selector', goSelector(mine.selector), `pub.spec.selector is in conflict with other PodUnavailableBudget ${name}`)];
    }
  }
  return [];
}

/**
 * Every violation of `pub` (CREATE, or UPDATE with `old`), against the namespace's PUBs (`others`; an Error when
 * listing them failed).
 */
export function validatePub(pub: PodUnavailableBudget, old: PodUnavailableBudget | undefined, others: readonly PodUnavailableBudget[] | Error): Violation[] {
  const out = [...validateMetadata(pub), ...validateSpec(pub)];
  if (old && (!isDeepStrictEqual(pub.spec?.selector ?? null, old.spec?.selector ?? null) || !isDeepStrictEqual(pub.spec?.targetRef ?? null, old.spec?.targetRef ?? null))) {
    out.push(required('spec.selector, targetRef', 'selector and targetRef cannot be modified'));
  }
  if (others instanceof Error) out.push(internal('', `query other podUnavailableBudget failed, err: ${others.message}`));
  else out.push(...conflict(pub, others.filter((o) => o.metadata?.namespace === pub.metadata?.namespace)));
  return out;
}
