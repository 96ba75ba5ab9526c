// Which NodeImages an ImagePullJob pulls on (spec/daemon-and-controllers.md §3.2 step 5): nodes running the job's
// pods (podSelector), the named nodes, nodes whose labels match (NodeImage labels mirror Node labels), or all.
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { matchesLabelSelector } from '../../shared/domain/label-selector.js';

export interface TargetSources {
  nodeImage(name: string): NodeImage | undefined;
  nodeImages(): readonly NodeImage[];
  /** Pods of one namespace. */
  pods(namespace: string): readonly Pod[];
}

/** A pod that still holds its node: bound, not finished, not terminating. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !!pod.spec?.nodeName && phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** The job's target NodeImages, each once. Throws LabelSelectorError for a selector Kubernetes would refuse. */
export function selectTargets(job: ImagePullJob, src: TargetSources): NodeImage[] {
  const spec = job.spec;
  const byNames = (names: Iterable<string>) => {
    const out: NodeImage[] = [];
    for (const name of new Set(names)) {
      const ni = src.nodeImage(name);
      if (ni) out.push(ni);
    }
    return out;
  };
  if (spec?.podSelector) {
    const sel = spec.podSelector;
    const nodes = src.pods(job.metadata?.namespace ?? '')
      .filter((p) => isActivePod(p) && matchesLabelSelector(sel, p.metadata?.labels))
      .map((p) => p.spec!.nodeName!);
    return byNames(nodes);
  }
  const selector = spec?.selector;
  if (!selector) return [...src.nodeImages()];
  if (selector.names != null) return byNames(selector.names);
  // `selector: {}` selects every node, as an empty label selector does everywhere in Kubernetes.
  return src.nodeImages().filter((ni) => matchesLabelSelector(selector, ni.metadata?.labels));
}

/**
 * Whether the job would target this NodeImage (used to map NodeImage events to jobs). Same rules as selectTargets,
 * for one NodeImage; an invalid selector matches nothing here (the job's own reconcile reports it).
 */
export function mayTarget(job: ImagePullJob, ni: NodeImage, podsOnNode: () => readonly Pod[]): boolean {
  const spec = job.spec;
  const name = ni.metadata?.name ?? '';
  try {
    if (spec?.podSelector) {
      const sel = spec.podSelector;
      return podsOnNode().some((p) => p.metadata?.namespace === job.metadata?.namespace && isActivePod(p) && matchesLabelSelector(sel, p.metadata?.labels));
    }
    const selector = spec?.selector;
    if (!selector) return true;
    if (selector.names != null) return selector.names.includes(name);
    return matchesLabelSelector(selector, ni.metadata?.labels);
  } catch {
    return false;
  }
}
