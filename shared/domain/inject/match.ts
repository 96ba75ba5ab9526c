// Which SidecarSets apply to a pod (spec/webhooks.md §2.3 steps 1–2).
import type { LabelSelector, Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { LabelSelectorError, matchesLabelSelector } from '../label-selector.js';

const isEmptySelector = (s: LabelSelector) => Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;

/** matchesLabelSelector, with an invalid selector turned into a denial naming the SidecarSet and field. */
export function selectorMatches(set: SidecarSet, field: string, selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  try {
    return matchesLabelSelector(selector, labels);
  } catch (err) {
    if (!(err instanceof LabelSelectorError)) throw err;
    throw new AdmissionDeniedError(`sidecarset ${set.metadata?.name} has an invalid ${field}: ${err.message}; fix the SidecarSet`, 400, { cause: err });
  }
}

/**
 * Why `set` does not apply to the pod, or null when it does. `podNamespace` is the pod's (or the request's) namespace,
 * "default" when both are empty. A nil or empty `spec.selector` selects nothing; a nil `namespaceSelector` selects every
 * namespace, a set one needs the Namespace to exist. Paused injection is the webhook's concern, not matching's: the
 * SidecarSet controller keeps managing the pods of a SidecarSet whose injection is paused.
 */
export function podMatchSkipReason(
  set: SidecarSet,
  pod: Pod,
  podNamespace: string,
  namespaceLabels: (name: string) => Record<string, string> | undefined,
): string | null {
  const spec = set.spec ?? {};
  if (spec.namespace && spec.namespace !== podNamespace) return `scoped to namespace ${spec.namespace}`;
  if (spec.namespaceSelector) {
    const labels = namespaceLabels(podNamespace);
    if (labels === undefined) return `namespace ${podNamespace} not found`;
    if (!selectorMatches(set, 'spec.namespaceSelector', spec.namespaceSelector, labels)) return 'namespaceSelector does not match';
  }
  if (!spec.selector || isEmptySelector(spec.selector)) return 'no selector';
  if (!selectorMatches(set, 'spec.selector', spec.selector, pod.metadata?.labels)) return 'selector does not match';
  return null;
}

/** Why the webhook injects nothing of `set` into the pod (paused injection, then podMatchSkipReason), or null. */
export function sidecarSetSkipReason(
  set: SidecarSet,
  pod: Pod,
  podNamespace: string,
  namespaceLabels: (name: string) => Record<string, string> | undefined,
): string | null {
  if (set.spec?.injectionStrategy?.paused) return 'injection paused';
  return podMatchSkipReason(set, pod, podNamespace, namespaceLabels);
}
