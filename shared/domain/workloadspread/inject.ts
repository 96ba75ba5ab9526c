// What a chosen subset writes into a new pod (spec/availability-guards.md §12.3): tolerations, node affinity, the
// subset's strategic merge patch, and the matched-workloadspread annotation. Pure: returns a new pod.
import type { Pod } from '../../api/meta.js';
import { MatchedWorkloadSpreadAnnotation, type WorkloadSpread } from '../../api/workload-spread.js';
import { formatMatchedAnnotation } from './annotation.js';
import { strategicMergePod } from './strategic-merge.js';

export function injectSubset(ws: WorkloadSpread, pod: Pod, subsetName: string, generatedUID?: string): Pod {
  const subset = ws.spec?.subsets?.find((s) => s.name === subsetName);
  if (!subset) return pod;
  let out: Pod = structuredClone(pod);
  const spec = (out.spec ??= { containers: [] });
  if (subset.tolerations?.length) spec.tolerations = [...(spec.tolerations ?? []), ...structuredClone(subset.tolerations)];
  const affinity = (spec.affinity ??= {});
  const na = (affinity.nodeAffinity ??= {});
  if (subset.preferredNodeSelectorTerms?.length) {
    na.preferredDuringSchedulingIgnoredDuringExecution = [...(na.preferredDuringSchedulingIgnoredDuringExecution ?? []), ...structuredClone(subset.preferredNodeSelectorTerms)];
  }
  const term = subset.requiredNodeSelectorTerm;
  if (term) {
    const required = (na.requiredDuringSchedulingIgnoredDuringExecution ??= { nodeSelectorTerms: [] });
    if (!required.nodeSelectorTerms?.length) required.nodeSelectorTerms = [structuredClone(term)];
    else {
      // AND: the subset's requirements join every existing term.
      for (const t of required.nodeSelectorTerms) {
        if (term.matchExpressions?.length) t.matchExpressions = [...(t.matchExpressions ?? []), ...structuredClone(term.matchExpressions)];
        if (term.matchFields?.length) t.matchFields = [...(t.matchFields ?? []), ...structuredClone(term.matchFields)];
      }
    }
  }
  if (subset.patch !== undefined && subset.patch !== null) {
    const before = out.spec?.priorityClassName;
    out = strategicMergePod(out as Record<string, unknown>, subset.patch) as Pod;
    // The apiserver's priority admission ran before the webhooks; it runs again when the class changed (§12.3).
    if (out.spec && out.spec.priorityClassName !== before) delete out.spec.priority;
  }
  const meta = (out.metadata ??= {});
  meta.labels ??= {};
  meta.annotations = { ...(meta.annotations ?? {}), [MatchedWorkloadSpreadAnnotation]: formatMatchedAnnotation({ name: ws.metadata?.name ?? '', subset: subsetName, ...(generatedUID ? { uid: generatedUID } : {}) }) };
  return out;
}
