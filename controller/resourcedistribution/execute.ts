// Carries out a Plan against the API with bounded concurrency and reports each namespace's outcome. Upstream writes in
// slow-start batches (1, 2, 4, …) that wait for their slowest member; a fixed-size pool keeps the apiserver
// equally busy without those stalls and never has more than `concurrency` writes in flight.
import type { ResourceDistribution, ResourceDistributionConditionType } from '../../shared/api/resource-distribution.js';
import { distributeStep, type Failure, type Plan, type Step } from './plan.js';
import { buildCopy, type CopyObject, type DistributedResource } from './resource.js';

/** The API calls the executor makes, for one kind (ConfigMap or Secret). */
export interface CopyApi {
  get(namespace: string, name: string): Promise<CopyObject | undefined>;
  create(obj: CopyObject): Promise<void>;
  /** Unconditional replace (no resourceVersion), as upstream's Update of a freshly built object. */
  replace(obj: CopyObject): Promise<void>;
  /** Deletes only the object with this uid; resolves when it is gone or no longer that object. */
  delete(namespace: string, name: string, uid: string | undefined): Promise<void>;
}

export interface ExecuteInput {
  rd: ResourceDistribution;
  resource: DistributedResource;
  hash: string;
  now: Date;
  api: CopyApi;
  concurrency: number;
  /** Told of every successful write: the namespace, the resourceVersion it replaced (undefined for a create). */
  onWritten?(namespace: string, replacedRv: string | undefined, what: 'written' | 'deleted'): void;
}

export interface Outcome {
  /** Matched namespaces whose copy is in place after this pass. */
  succeeded: number;
  /** In plan order: distribution failures first, then clean-up failures. */
  failures: Failure[];
  writes: { created: number; updated: number; deleted: number };
}

const codeOf = (err: unknown) => (err as { code?: unknown })?.code;
/** What a user reads in the condition's reason: the apiserver's message, as client-go's StatusError prints it. */
const messageOf = (err: unknown) => (err as { statusMessage?: string })?.statusMessage ?? (err instanceof Error ? err.message : String(err));

export async function executePlan(plan: Plan, input: ExecuteInput): Promise<Outcome> {
  const { api, rd, resource, hash, now } = input;
  const results: (Failure | 'ok' | 'cleaned')[] = new Array(plan.steps.length);
  const writes = { created: 0, updated: 0, deleted: 0 };
  const fail = (namespace: string, condition: ResourceDistributionConditionType, err: unknown): Failure => ({ namespace, condition, message: messageOf(err) });

  const update = async (namespace: string, existing: CopyObject): Promise<Failure | 'ok'> => {
    try {
      await api.replace(buildCopy(rd, resource, namespace, hash, now, existing));
      writes.updated++;
      input.onWritten?.(namespace, existing.metadata?.resourceVersion, 'written');
      return 'ok';
    } catch (err) {
      // Deleted since the cache saw it: create it instead of failing the pass.
      if (codeOf(err) === 404) return create(namespace, false);
      return fail(namespace, 'UpdateResourceFailed', err);
    }
  };
  const create = async (namespace: string, mayExist: boolean): Promise<Failure | 'ok'> => {
    try {
      await api.create(buildCopy(rd, resource, namespace, hash, now));
      writes.created++;
      input.onWritten?.(namespace, undefined, 'written');
      return 'ok';
    } catch (err) {
      if (codeOf(err) !== 409 || !mayExist) return fail(namespace, 'CreateResourceFailed', err);
    }
    // AlreadyExists: the cache had not seen it yet. Decide again from the live object.
    let live: CopyObject | undefined;
    try {
      live = await api.get(namespace, resource.name);
    } catch (err) {
      return fail(namespace, 'GetResourceFailed', err);
    }
    const next = distributeStep({ rd, resource }, namespace, live);
    if (!next) return 'ok';
    if (next.op === 'fail') return next.failure;
    if (next.op === 'update') return update(namespace, next.existing);
    return create(namespace, false);
  };
  const run = async (step: Step): Promise<Failure | 'ok' | 'cleaned'> => {
    switch (step.op) {
      case 'fail': return step.failure;
      case 'create': return create(step.namespace, true);
      case 'update': return update(step.namespace, step.existing);
      case 'delete':
        try {
          await api.delete(step.namespace, resource.name, step.existing.metadata?.uid);
          writes.deleted++;
          input.onWritten?.(step.namespace, step.existing.metadata?.resourceVersion, 'deleted');
          return 'cleaned';
        } catch (err) {
          return fail(step.namespace, 'DeleteResourceFailed', err);
        }
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < plan.steps.length) {
      const i = next++;
      results[i] = await run(plan.steps[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, plan.steps.length)) }, worker));

  const failures = results.filter((r): r is Failure => typeof r === 'object');
  const distributedOk = results.filter((r, i) => r === 'ok' && plan.steps[i]!.op !== 'delete').length;
  return { succeeded: plan.inSync + distributedOk, failures, writes };
}
