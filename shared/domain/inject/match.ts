// Which SidecarSets apply to a pod (spec/webhooks.md §2.3 steps 1–2).
import type { LabelSelector, Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { compileLabelSelector, LabelSelectorError, type LabelMatcher } from '../label-selector.js';

const isEmptySelector = (s: LabelSelector) => Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;

/** A compiled selector whose invalid-selector error becomes a denial naming the SidecarSet and field. */
function denyingMatcher(set: SidecarSet, field: string, selector: LabelSelector): LabelMatcher {
  const match = compileLabelSelector(selector);
  return (labels) => {
    try {
      return match(labels);
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      throw new AdmissionDeniedError(`sidecarset ${set.metadata?.name} has an invalid ${field}: ${err.message}; fix the SidecarSet`, 400, { cause: err });
    }
  };
}

/** matchesLabelSelector, with an invalid selector turned into a denial naming the SidecarSet and field. */
export function selectorMatches(set: SidecarSet, field: string, selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  return denyingMatcher(set, field, selector)(labels);
}

/** Everything about a SidecarSet that decides whether it applies to a pod, read once. */
export interface CompiledMatch {
  resourceVersion: string | undefined;
  paused: boolean;
  namespace: string | undefined;
  /** undefined: no namespaceSelector, every namespace qualifies. */
  namespaceMatch: LabelMatcher | undefined;
  /** undefined: a nil or empty selector, which selects no pod. */
  podMatch: LabelMatcher | undefined;
}

function compile(set: SidecarSet): CompiledMatch {
  const spec = set.spec ?? {};
  const selector = spec.selector;
  return {
    resourceVersion: set.metadata?.resourceVersion,
    paused: Boolean(spec.injectionStrategy?.paused),
    namespace: spec.namespace || undefined,
    namespaceMatch: spec.namespaceSelector ? denyingMatcher(set, 'spec.namespaceSelector', spec.namespaceSelector) : undefined,
    podMatch: !selector || isEmptySelector(selector) ? undefined : denyingMatcher(set, 'spec.selector', selector),
  };
}

// Keyed by the SidecarSet object: informer caches never edit a stored object, a change replaces it with a new object
// (and a new resourceVersion), so an entry lives exactly as long as the SidecarSet generation it was compiled from.
// Objects without a resourceVersion (tests, documents the CLI reads) are compiled on every call instead.
const compiled = new WeakMap<SidecarSet, CompiledMatch>();

/** The SidecarSet's matching data, compiled once per object and resourceVersion. */
export function compiledMatch(set: SidecarSet): CompiledMatch {
  const rv = set.metadata?.resourceVersion;
  if (!rv) return compile(set);
  let c = compiled.get(set);
  if (!c || c.resourceVersion !== rv) compiled.set(set, (c = compile(set)));
  return c;
}

/**
 * Why the SidecarSet `c` was compiled from does not apply to the pod, or null when it does. `podNamespace` is the pod's (or the request's) namespace,
 * "default" when both are empty. A nil or empty `spec.selector` selects nothing; a nil `namespaceSelector` selects every
 * namespace, a set one needs the Namespace to exist.
 */
export function skipReason(
  c: CompiledMatch,
  pod: Pod,
  podNamespace: string,
  namespaceLabels: (name: string) => Record<string, string> | undefined,
): string | null {
  if (c.paused) return 'injection paused';
  if (c.namespace && c.namespace !== podNamespace) return `scoped to namespace ${c.namespace}`;
  if (c.namespaceMatch) {
    const labels = namespaceLabels(podNamespace);
    if (labels === undefined) return `namespace ${podNamespace} not found`;
    if (!c.namespaceMatch(labels)) return 'namespaceSelector does not match';
  }
  if (!c.podMatch) return 'no selector';
  if (!c.podMatch(pod.metadata?.labels)) return 'selector does not match';
  return null;
}
