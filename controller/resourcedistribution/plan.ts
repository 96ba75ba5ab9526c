// What one reconcile does in each namespace (spec/daemon-and-controllers.md §5.3 steps 3–4), decided from the
// cached world before anything is written. Namespaces that need no write get no API request at all.
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceDistribution, ResourceDistributionConditionType } from '../../shared/api/resource-distribution.js';
import { isControlledByRd, needsUpdate, type CopyObject, type DistributedResource } from './resource.js';

export const NamespaceNotExistsMessage = 'namespace not found or is terminating';
export const ConflictMessage = 'conflict with existing resources because of the same namespace, group, version, kind and name';

/** One namespace's failure, reported in the condition of that type. */
export interface Failure {
  namespace: string;
  condition: ResourceDistributionConditionType;
  message: string;
}

export type Step =
  | { op: 'create'; namespace: string }
  | { op: 'update'; namespace: string; existing: CopyObject }
  | { op: 'delete'; namespace: string; existing: CopyObject }
  | { op: 'fail'; failure: Failure };

export interface Plan {
  /** Writes and known failures, in namespace order: distribution first, then clean-up. */
  steps: Step[];
  /** Matched namespaces whose copy is already right. */
  inSync: number;
}

export interface PlanInput {
  rd: ResourceDistribution;
  resource: DistributedResource;
  matched: readonly string[];
  unmatched: readonly string[];
  namespace(name: string): V1Namespace | undefined;
  /** The object named like the resource in `namespace`, from the cache of its kind. */
  existing(namespace: string): CopyObject | undefined;
  /**
   * What this process already wrote there for the current resource while the cache still shows the older state:
   * 'written' (treated as in sync) or 'deleted' (nothing left to delete).
   */
  inFlight?(namespace: string): 'written' | 'deleted' | undefined;
}

/** The step for a matched, live namespace given what is there (also used after a create found the name taken). */
export function distributeStep(input: Pick<PlanInput, 'rd' | 'resource'>, namespace: string, existing: CopyObject | undefined): Step | null {
  if (!existing) return { op: 'create', namespace };
  if (!isControlledByRd(existing, input.rd)) return { op: 'fail', failure: { namespace, condition: 'ConflictOccurred', message: ConflictMessage } };
  return needsUpdate(existing, input.resource) ? { op: 'update', namespace, existing } : null;
}

const gone = (ns: V1Namespace | undefined) => !ns || !!ns.metadata?.deletionTimestamp;

export function planDistribution(input: PlanInput): Plan {
  const steps: Step[] = [];
  let inSync = 0;
  for (const namespace of input.matched) {
    if (gone(input.namespace(namespace))) {
      steps.push({ op: 'fail', failure: { namespace, condition: 'NamespaceNotExists', message: NamespaceNotExistsMessage } });
      continue;
    }
    const step = input.inFlight?.(namespace) === 'written' ? null : distributeStep(input, namespace, input.existing(namespace));
    if (step) steps.push(step);
    else inSync++;
  }
  for (const namespace of input.unmatched) {
    if (gone(input.namespace(namespace))) continue;
    const existing = input.existing(namespace);
    // Objects this RD does not control are never touched, here or anywhere.
    if (existing && isControlledByRd(existing, input.rd) && input.inFlight?.(namespace) !== 'deleted') steps.push({ op: 'delete', namespace, existing });
  }
  return { steps, inSync };
}
