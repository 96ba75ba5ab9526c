// Adoption of the workload's pods the webhook did not place (spec/availability-guards.md §14.4): a pod without this
// WorkloadSpread's annotation (created before it, or placed by another) goes to the subset its node fits best, and is
// patched with the annotation (and the subset patch's labels and annotations); no node or no fitting subset → the fake
// subset. Pure: the caller reads nodes and writes the patches.
import type { V1Node } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import type { Pod } from '../../shared/api/meta.js';
import { FakeSubsetName, IgnorePatchExistingPodsAnnotation, MatchedWorkloadSpreadAnnotation, type WorkloadSpread, type WorkloadSpreadSubset } from '../../shared/api/workload-spread.js';
import { formatMatchedAnnotation } from '../../shared/domain/workloadspread/annotation.js';
import { strategicMergePod } from '../../shared/domain/workloadspread/strategic-merge.js';
import { requiredMatches, taintsTolerated, termMatches } from './node-match.js';

/** −1: the node cannot hold the pod in this subset; else 100 × preferred weight + 10 × patch already applied + budget left. */
export function subsetScore(pod: Pod, node: V1Node, subset: WorkloadSpreadSubset, budget: number): number {
  if (!taintsTolerated(node, [...(pod.spec?.tolerations ?? []), ...(subset.tolerations ?? [])])) return -1;
  if (subset.requiredNodeSelectorTerm) {
    const podTerms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    if (!requiredMatches(node, podTerms, subset.requiredNodeSelectorTerm)) return -1;
  }
  const preferred = (subset.preferredNodeSelectorTerms ?? []).reduce((n, t) => n + (termMatches(node, t.preference) ? t.weight : 0), 0);
  return 100 * preferred + 10 * (patchApplied(pod, subset) ? 1 : 0) + (budget > 0 ? 1 : 0);
}

/** Applying the subset's patch would change nothing but annotations. */
function patchApplied(pod: Pod, subset: WorkloadSpreadSubset): boolean {
  if (subset.patch === undefined || subset.patch === null) return true;
  const strip = (p: Pod) => ({ ...p, metadata: { ...p.metadata, annotations: undefined } });
  try {
    return isDeepStrictEqual(JSON.parse(JSON.stringify(strip(strategicMergePod(pod as Record<string, unknown>, subset.patch) as Pod))), JSON.parse(JSON.stringify(strip(pod))));
  } catch {
    return false;
  }
}

/** The subset with the highest score (strictly greater wins, so ties keep the earlier), or the fake subset. */
export function adoptSubset(ws: WorkloadSpread, pod: Pod, node: V1Node | undefined, budgets: Map<string, number>): string {
  if (!node) return FakeSubsetName;
  let best = FakeSubsetName;
  let bestScore = -1;
  for (const s of ws.spec?.subsets ?? []) {
    const score = subsetScore(pod, node, s, budgets.get(s.name) ?? 0);
    if (score > bestScore) { best = s.name; bestScore = score; }
  }
  return best;
}

/** The strategic merge patch that records the adoption: the annotation, plus the subset patch's labels/annotations. */
export function adoptionPatch(ws: WorkloadSpread, subset: string): { metadata: { labels?: Record<string, string>; annotations: Record<string, string> } } {
  const annotations: Record<string, string> = { [MatchedWorkloadSpreadAnnotation]: formatMatchedAnnotation({ name: ws.metadata?.name ?? '', subset }) };
  const ignore = (ws.metadata?.annotations?.[IgnorePatchExistingPodsAnnotation] ?? '').toLowerCase() === 'true';
  const meta = (ws.spec?.subsets?.find((s) => s.name === subset)?.patch as { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } } | undefined)?.metadata;
  if (ignore || !meta) return { metadata: { annotations } };
  return { metadata: { ...(meta.labels ? { labels: { ...meta.labels } } : {}), annotations: { ...(meta.annotations ?? {}), ...annotations } } };
}
