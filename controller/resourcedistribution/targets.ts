// Which namespaces a ResourceDistribution targets (spec/daemon-and-controllers.md §5.3 step 2, §5.4).
//
// matched = (allNamespaces ? every existing namespace : the includedNamespaces names, existing or not)
//           ∪ (not allNamespaces and a non-empty selector ? existing namespaces it matches : ∅)
//           − excludedNamespaces
// unmatched = existing namespaces − matched. Both sorted by name.
//
// Protected namespaces (kube-*, and kruise's own, labelled control-plane=openkruise) are never matched, even when
// named in includedNamespaces (review H5; shared/domain/protected-namespaces.ts). v1.8.2 had no exclusion; upstream
// HEAD excludes kube-system and kube-public (docs/compatibility.md). A copy an older version left in one of them is
// cleaned up like any unmatched namespace's.
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceDistributionTargetNamespaces, ResourceDistributionTargets } from '../../shared/api/resource-distribution.js';
import { matchesLabelSelector } from '../../shared/domain/label-selector.js';
import { protectedNamespaceReason } from '../../shared/domain/protected-namespaces.js';

const isProtected = (name: string, labels: Readonly<Record<string, string>> | undefined) => protectedNamespaceReason(name, labels) !== null;

export interface TargetNamespaces {
  matched: string[];
  unmatched: string[];
}

const names = (l: ResourceDistributionTargetNamespaces | undefined): string[] => (l?.list ?? []).map((n) => n.name).filter(Boolean);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A selector with neither matchLabels nor matchExpressions selects nothing here (not everything). */
function selectorInUse(t: ResourceDistributionTargets): boolean {
  const s = t.namespaceLabelSelector;
  return Object.keys(s?.matchLabels ?? {}).length > 0 || (s?.matchExpressions?.length ?? 0) > 0;
}

/** Throws LabelSelectorError for a selector Kubernetes would refuse (the webhook refuses it first). */
export function targetNamespaces(targets: ResourceDistributionTargets | undefined, namespaces: readonly V1Namespace[]): TargetNamespaces {
  const t = targets ?? {};
  const existing = namespaces.map((n) => n.metadata?.name).filter((n): n is string => !!n);
  const labels = new Map(namespaces.map((n) => [n.metadata?.name ?? '', n.metadata?.labels]));
  const matched = new Set<string>();
  if (t.allNamespaces) {
    for (const n of existing) matched.add(n);
  } else {
    for (const n of names(t.includedNamespaces)) matched.add(n);
    if (selectorInUse(t)) {
      for (const ns of namespaces) {
        const n = ns.metadata?.name;
        if (n && matchesLabelSelector(t.namespaceLabelSelector!, ns.metadata?.labels)) matched.add(n);
      }
    }
  }
  for (const n of names(t.excludedNamespaces)) matched.delete(n);
  for (const n of matched) if (isProtected(n, labels.get(n))) matched.delete(n);
  return {
    matched: [...matched].sort(byName),
    unmatched: existing.filter((n) => !matched.has(n)).sort(byName),
  };
}

/** Whether a namespace with these labels is selected through namespaceLabelSelector alone. */
export function matchesViaSelector(targets: ResourceDistributionTargets | undefined, name: string, labels: Record<string, string> | undefined): boolean {
  const t = targets ?? {};
  if (isProtected(name, labels) || !selectorInUse(t)) return false;
  return matchesLabelSelector(t.namespaceLabelSelector!, labels);
}

/** Whether the namespace is listed in includedNamespaces. */
export function isIncluded(targets: ResourceDistributionTargets | undefined, name: string): boolean {
  return names(targets?.includedNamespaces).includes(name);
}

/** Whether the targets select this (existing) namespace: the per-namespace form of targetNamespaces. */
export function matchesTargets(targets: ResourceDistributionTargets | undefined, name: string, labels: Record<string, string> | undefined): boolean {
  const t = targets ?? {};
  if (names(t.excludedNamespaces).includes(name) || isProtected(name, labels)) return false;
  if (isIncluded(t, name)) return true;
  if (t.allNamespaces) return true;
  return matchesViaSelector(t, name, labels);
}
