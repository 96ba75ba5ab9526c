// Whether a node could hold a pod of a subset (spec/availability-guards.md §14.4 `matchesSubset`): the scheduling
// predicates kruise's adoption evaluates — taints against tolerations, required node selector terms — and the
// preferred terms' weight. Kubernetes semantics (component-helpers nodeaffinity, v1helper taints).
import type { V1Node, V1NodeSelectorRequirement, V1NodeSelectorTerm, V1Taint, V1Toleration } from '@kubernetes/client-node';

function tolerates(t: V1Toleration, taint: V1Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** Every NoSchedule/NoExecute taint of the node is tolerated. */
export const taintsTolerated = (node: V1Node, tolerations: readonly V1Toleration[]): boolean =>
  (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute').every((taint) => tolerations.some((t) => tolerates(t, taint)));

function requirementMatches(r: V1NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In': return value !== undefined && values.includes(value);
    case 'NotIn': return value === undefined || !values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    case 'Gt': case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0]!)) return false;
      return r.operator === 'Gt' ? BigInt(value) > BigInt(values[0]!) : BigInt(value) < BigInt(values[0]!);
    }
    default: return false;
  }
}

/** A term matches when all its requirements do; an empty term matches nothing (Kubernetes). */
export function termMatches(node: V1Node, term: V1NodeSelectorTerm): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  return exprs.every((r) => requirementMatches(r, Object.hasOwn(labels, r.key) ? labels[r.key] : undefined))
    && fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, node.metadata?.name));
}

/** The pod's required terms each ANDed with the subset's (the subset's alone when the pod has none): any matches. */
export function requiredMatches(node: V1Node, podTerms: readonly V1NodeSelectorTerm[], subsetTerm: V1NodeSelectorTerm): boolean {
  if (podTerms.length === 0) return termMatches(node, subsetTerm);
  return podTerms.some((t) => termMatches(node, {
    matchExpressions: [...(t.matchExpressions ?? []), ...(subsetTerm.matchExpressions ?? [])],
    matchFields: [...(t.matchFields ?? []), ...(subsetTerm.matchFields ?? [])],
  }));
}
