// metav1.LabelSelector matching as ValidatedLabelSelectorAsSelector(s).Matches(labels) does it in Kubernetes.
import type { LabelSelector } from '../api/meta.js';

/** A selector Kubernetes would refuse to turn into a labels.Selector (unknown operator, missing/extra values). */
export class LabelSelectorError extends Error {
  readonly code = 'INVALID_LABEL_SELECTOR';
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Throws LabelSelectorError for requirements Kubernetes rejects; returns silently otherwise. */
export function validateLabelSelector(selector: LabelSelector): void {
  for (const req of selector.matchExpressions ?? []) {
    const values = req.values ?? [];
    if (!OPERATORS.has(req.operator)) {
      throw new LabelSelectorError(`"${req.operator}" is not a valid label selector operator (key "${req.key}"); use In, NotIn, Exists or DoesNotExist`);
    }
    if ((req.operator === 'In' || req.operator === 'NotIn') && values.length === 0) {
      throw new LabelSelectorError(`values must be non-empty for operator ${req.operator} (key "${req.key}")`);
    }
    if ((req.operator === 'Exists' || req.operator === 'DoesNotExist') && values.length > 0) {
      throw new LabelSelectorError(`values must be empty for operator ${req.operator} (key "${req.key}")`);
    }
  }
}

/**
 * Whether `labels` satisfy `selector` (matchLabels AND every matchExpression). `NotIn` and `DoesNotExist` match when the
 * label is absent. An empty selector `{}` matches everything, as in Kubernetes.
 *
 * nil/empty policy is the caller's: a SidecarSet's `spec.selector` that is nil or `{}` matches *no* pod, while its
 * `namespaceSelector` `{}` matches every namespace (spec/webhooks.md §2.3) — callers check that before calling here.
 * The whole selector is validated before matching (as Kubernetes builds it first), so an invalid requirement throws
 * LabelSelectorError even when an earlier term already fails.
 */
export function matchesLabelSelector(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  validateLabelSelector(selector);
  const have = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (!Object.hasOwn(have, k) || have[k] !== v) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, req.key);
    const values = req.values ?? [];
    const ok =
      req.operator === 'In' ? present && values.includes(have[req.key]!)
      : req.operator === 'NotIn' ? !present || !values.includes(have[req.key]!)
      : req.operator === 'Exists' ? present
      : !present;
    if (!ok) return false;
  }
  return true;
}
