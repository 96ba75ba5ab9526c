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

/** A selector turned into a predicate over labels; an invalid selector's predicate throws its LabelSelectorError. */
export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

/** One matchExpression against the labels; `has` tells whether the label's value is among the requirement's values. */
function requirementHolds(operator: string, present: boolean, has: () => boolean): boolean {
  switch (operator) {
    case 'In': return present && has();
    case 'NotIn': return !present || !has();
    case 'Exists': return present;
    default: return !present;
  }
}

/**
 * Compiles `selector` once: validated, matchLabels unpacked into arrays, each expression's values in a Set. Callers
 * that match many pods against one selector keep the result. Reads the selector only now, so later edits to it are
 * not seen (selectors from informer caches are never edited in place; a change arrives as a new object).
 */
export function compileLabelSelector(selector: LabelSelector): LabelMatcher {
  try {
    validateLabelSelector(selector);
  } catch (err) {
    return () => {
      throw err;
    };
  }
  const keys = Object.keys(selector.matchLabels ?? {});
  const values = keys.map((k) => selector.matchLabels![k]);
  const exprs = (selector.matchExpressions ?? []).map((r) => ({ key: r.key, operator: r.operator, values: new Set(r.values ?? []) }));
  return (labels) => {
    const have = labels ?? {};
    for (let i = 0; i < keys.length; i++) {
      if (!Object.hasOwn(have, keys[i]!) || have[keys[i]!] !== values[i]) return false;
    }
    for (const req of exprs) {
      if (!requirementHolds(req.operator, Object.hasOwn(have, req.key), () => req.values.has(have[req.key]!))) return false;
    }
    return true;
  };
}

/**
 * Whether `labels` satisfy `selector` (matchLabels AND every matchExpression). `NotIn` and `DoesNotExist` match when the
 * label is absent. An empty selector `{}` matches everything, as in Kubernetes.
 *
 * nil/empty policy is the caller's: a SidecarSet's `spec.selector` that is nil or `{}` matches *no* pod, while its
 * `namespaceSelector` `{}` matches every namespace (spec/webhooks.md §2.3) — callers check that before calling here.
 * The whole selector is validated before matching (as Kubernetes builds it first), so an invalid requirement throws
 * LabelSelectorError even when an earlier term already fails. For one-off checks; compileLabelSelector for reuse.
 */
export function matchesLabelSelector(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  validateLabelSelector(selector);
  const have = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (!Object.hasOwn(have, k) || have[k] !== v) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    if (!requirementHolds(req.operator, Object.hasOwn(have, req.key), () => (req.values ?? []).includes(have[req.key]!))) return false;
  }
  return true;
}
