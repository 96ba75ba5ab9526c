// What a chosen subset writes into a new pod (spec/availability-guards.md §12.3): tolerations, node affinity, the
// subset's strategic merge patch, and the matched-workloadspread annotation. Pure: returns a new pod.
import type { V1NodeSelectorTerm } from '@kubernetes/client-node';
import type { Pod } from '../../api/meta.js';
import { MatchedWorkloadSpreadAnnotation, type WorkloadSpread } from '../../api/workload-spread.js';
import { formatMatchedAnnotation } from './annotation.js';
import { strategicMergePod } from './strategic-merge.js';

const isObj = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);

export function injectSubset(ws: WorkloadSpread, pod: Pod, subsetName: string, generatedUID?: string): Pod {
  const subset = ws.spec?.subsets?.find((s) => s.name === subsetName);
  if (!subset) return pod;
  let out: Pod = structuredClone(pod);
  // Pods come typed from the apiserver; a forged review's odd shapes are replaced rather than crashed on.
  const spec = (isObj(out.spec) ? out.spec : (out.spec = { containers: [] })) as NonNullable<Pod['spec']>;
  if (subset.tolerations?.length) spec.tolerations = [...arr(spec.tolerations), ...structuredClone(subset.tolerations)];
  const affinity = (isObj(spec.affinity) ? spec.affinity : (spec.affinity = {})) as NonNullable<typeof spec.affinity>;
  const na = (isObj(affinity.nodeAffinity) ? affinity.nodeAffinity : (affinity.nodeAffinity = {})) as NonNullable<typeof affinity.nodeAffinity>;
  if (subset.preferredNodeSelectorTerms?.length) {
    na.preferredDuringSchedulingIgnoredDuringExecution = [...arr(na.preferredDuringSchedulingIgnoredDuringExecution), ...structuredClone(subset.preferredNodeSelectorTerms)];
  }
  const term = subset.requiredNodeSelectorTerm;
  if (term) {
    const required = (isObj(na.requiredDuringSchedulingIgnoredDuringExecution) ? na.requiredDuringSchedulingIgnoredDuringExecution : (na.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [] })) as { nodeSelectorTerms: V1NodeSelectorTerm[] };
    const terms: V1NodeSelectorTerm[] = arr(required.nodeSelectorTerms).filter(isObj);
    if (terms.length === 0) required.nodeSelectorTerms = [structuredClone(term)];
    else {
      // AND: the subset's requirements join every existing term.
      for (const t of terms) {
        if (term.matchExpressions?.length) t.matchExpressions = [...arr(t.matchExpressions), ...structuredClone(term.matchExpressions)];
        if (term.matchFields?.length) t.matchFields = [...arr(t.matchFields), ...structuredClone(term.matchFields)];
      }
      required.nodeSelectorTerms = terms;
    }
  }
  if (subset.patch !== undefined && subset.patch !== null) {
    const before = out.spec?.priorityClassName;
    out = strategicMergePod(out as Record<string, unknown>, subset.patch) as Pod;
    // The apiserver's priority admission ran before the webhooks; it runs again when the class changed (§12.3).
    if (out.spec && out.spec.priorityClassName !== before) delete out.spec.priority;
  }
  // Upstream also makes an empty labels map, which Go's omitempty then leaves out of the patch: nothing to add here.
  const meta = (isObj(out.metadata) ? out.metadata : (out.metadata = {})) as NonNullable<Pod['metadata']>;
  meta.annotations = { ...(isObj(meta.annotations) ? meta.annotations : {}), [MatchedWorkloadSpreadAnnotation]: formatMatchedAnnotation({ name: ws.metadata?.name ?? '', subset: subsetName, ...(generatedUID ? { uid: generatedUID } : {}) }) };
  return out;
}
