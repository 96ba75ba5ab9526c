// Which SidecarSets apply to a pod (spec/webhooks.md §2.3 steps 1–2).
import type { LabelSelector, Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { NamespaceNameLabel } from '../../api/v1beta1/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { compileLabelSelector, LabelSelectorError, matchesLabelSelector, type LabelMatcher } from '../label-selector.js';

const isEmptySelector = (s: LabelSelector) => Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;

/** An invalid-selector error as the denial naming the SidecarSet and field; anything else unchanged. */
function asDenial(err: unknown, set: SidecarSet, field: string): unknown {
  if (!(err instanceof LabelSelectorError)) return err;
  return new AdmissionDeniedError(`sidecarset ${set.metadata?.name} has an invalid ${field}: ${err.message}; fix the SidecarSet`, 400, { cause: err });
}

/** matchesLabelSelector, with an invalid selector turned into a denial naming the SidecarSet and field. */
export function selectorMatches(set: SidecarSet, field: string, selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  try {
    return matchesLabelSelector(selector, labels);
  } catch (err) {
    throw asDenial(err, set, field);
  }
}

/** compileLabelSelector, its invalid-selector error turned into the same denial when the matcher runs. */
function compiledSelector(set: SidecarSet, field: string, selector: LabelSelector): LabelMatcher {
  const match = compileLabelSelector(selector);
  return (labels) => {
    try {
      return match(labels);
    } catch (err) {
      throw asDenial(err, set, field);
    }
  };
}

/** Everything about a SidecarSet that decides whether it applies to a pod, read once. */
export interface CompiledMatch {
  resourceVersion: string | undefined;
  paused: boolean;
  namespace: string | undefined;
  /**
   * The namespaces v1.9's candidate index files the SidecarSet under (spec/openkruise-v1.9.md §2.5): the value of
   * namespaceSelector.matchLabels[kubernetes.io/metadata.name], else the values of an `In` expression on that key;
   * undefined: cluster scope. A pod elsewhere is skipped before any Namespace lookup. The full selector still decides
   * for a pod inside, so the outcome is the selector's (the apiserver labels every Namespace with its name).
   */
  namespaceNames: ReadonlySet<string> | undefined;
  /** undefined: no namespaceSelector, every namespace qualifies. */
  namespaceMatch: LabelMatcher | undefined;
  /** undefined: a nil or empty selector, which selects no pod. */
  podMatch: LabelMatcher | undefined;
}

/** §2.5's index key(s) of a namespaceSelector, or undefined for cluster scope. */
export function indexedNamespaces(selector: LabelSelector | undefined): ReadonlySet<string> | undefined {
  if (!selector) return undefined;
  const name = selector.matchLabels?.[NamespaceNameLabel];
  if (name !== undefined) return new Set([name]);
  const inExpr = (selector.matchExpressions ?? []).find((e) => e.key === NamespaceNameLabel && e.operator === 'In');
  return inExpr ? new Set(inExpr.values ?? []) : undefined;
}

/** The matching data with selectors compiled (`compile`) or evaluated directly on each call (one-off use). */
function matchData(set: SidecarSet, compile: boolean): CompiledMatch {
  const spec = set.spec ?? {};
  const { selector, namespaceSelector } = spec;
  const matcher = (field: string, sel: LabelSelector): LabelMatcher =>
    compile ? compiledSelector(set, field, sel) : (labels) => selectorMatches(set, field, sel, labels);
  return {
    resourceVersion: set.metadata?.resourceVersion,
    paused: Boolean(spec.injectionStrategy?.paused),
    namespace: spec.namespace || undefined,
    namespaceNames: indexedNamespaces(namespaceSelector),
    namespaceMatch: namespaceSelector ? matcher('spec.namespaceSelector', namespaceSelector) : undefined,
    podMatch: !selector || isEmptySelector(selector) ? undefined : matcher('spec.selector', selector),
  };
}

// Keyed by the SidecarSet object: informer caches never edit a stored object, a change replaces it with a new object
// (and a new resourceVersion), so an entry lives exactly as long as the SidecarSet generation it was compiled from.
// Objects without a resourceVersion (tests, documents the CLI reads) are read afresh on every call, uncompiled.
const compiled = new WeakMap<SidecarSet, CompiledMatch>();

/** The SidecarSet's matching data, compiled once per object and resourceVersion. */
export function compiledMatch(set: SidecarSet): CompiledMatch {
  const rv = set.metadata?.resourceVersion;
  if (!rv) return matchData(set, false);
  let c = compiled.get(set);
  if (!c || c.resourceVersion !== rv) compiled.set(set, (c = matchData(set, true)));
  return c;
}

/**
 * Why the SidecarSet `c` was read from does not select the pod, or null when it does. `podNamespace` is the pod's
 * (or the request's) namespace, "default" when both are empty. A nil or empty `spec.selector` selects nothing; a nil
 * `namespaceSelector` selects every namespace, a set one needs the Namespace to exist. Paused injection is not
 * matching's concern: the SidecarSet controller keeps managing the pods of a SidecarSet whose injection is paused.
 */
export function matchSkipReason(
  c: CompiledMatch,
  pod: Pod,
  podNamespace: string,
  namespaceLabels: (name: string) => Record<string, string> | undefined,
): string | null {
  if (c.namespace && c.namespace !== podNamespace) return `scoped to namespace ${c.namespace}`;
  if (c.namespaceNames && !c.namespaceNames.has(podNamespace)) return 'namespaceSelector does not match';
  if (c.namespaceMatch) {
    const labels = namespaceLabels(podNamespace);
    if (labels === undefined) return `namespace ${podNamespace} not found`;
    if (!c.namespaceMatch(labels)) return 'namespaceSelector does not match';
  }
  if (!c.podMatch) return 'no selector';
  if (!c.podMatch(pod.metadata?.labels)) return 'selector does not match';
  return null;
}

/** Why the webhook injects nothing of the SidecarSet `c` was read from (paused injection, then matchSkipReason), or null. */
export function skipReason(
  c: CompiledMatch,
  pod: Pod,
  podNamespace: string,
  namespaceLabels: (name: string) => Record<string, string> | undefined,
): string | null {
  if (c.paused) return 'injection paused';
  return matchSkipReason(c, pod, podNamespace, namespaceLabels);
}

/** matchSkipReason for a SidecarSet object (the controller's view: pods it selects, paused injection or not). */
export const podMatchSkipReason = (set: SidecarSet, pod: Pod, podNamespace: string, namespaceLabels: (name: string) => Record<string, string> | undefined): string | null =>
  matchSkipReason(compiledMatch(set), pod, podNamespace, namespaceLabels);

