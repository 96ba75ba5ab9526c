// How Go's %#v prints the WorkloadSpread values its field errors carry (spec/availability-guards.md §0.4).
import type { IntOrString, LabelSelector } from '../../api/meta.js';
import type { TargetReference } from '../../api/workload-spread.js';
import type { Violation } from '../../errors.js';
import { goQuote } from '../resources-policy/go-quote.js';

export const goTargetRef = (r: TargetReference): string =>
  `v1alpha1.TargetReference{APIVersion:${goQuote(r.apiVersion ?? '')}, Kind:${goQuote(r.kind ?? '')}, Name:${goQuote(r.name ?? '')}}`;

export const goIntOrString = (v: IntOrString): string =>
  typeof v === 'number' ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}` : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;

/** The selector is a pointer in Go, printed as its address; kruise-ts has none to print, so it shows 0x0. */
export const goTargetFilter = (f: { selector?: LabelSelector; replicasPathList?: string[] }): string =>
  `v1alpha1.TargetFilter{Selector:(*v1.LabelSelector)(${f.selector ? '0x0' : 'nil'}), ReplicasPathList:${f.replicasPathList ? `[]string{${f.replicasPathList.map(goQuote).join(', ')}}` : '[]string(nil)'}}`;

/** field.InternalError. */
export const internal = (field: string, detail: string): Violation => ({ field, type: 'Internal error', detail });
