// resourcedistribution-controller (spec/daemon-and-controllers.md §5): copies the Secret or ConfigMap embedded in a
// ResourceDistribution into its target namespaces, keeps the copies in line, removes them where it no longer
// targets, and reports per-namespace failures in status. Copies are removed with the RD by garbage collection
// (controller ownerReference; no finalizer). Gather from the caches → plan → execute → status.
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceDistribution, ResourceDistributionStatus } from '../../shared/api/resource-distribution.js';
import { LabelSelectorError } from '../../shared/domain/label-selector.js';
import { resources, type Resource } from '../../shared/kube/resources.js';
import { yieldToLoop } from '../../shared/reconcile/yield.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { TerminalError } from '../../shared/reconcile/types.js';
import type { Controller } from '../types.js';
import { executePlan, type CopyApi } from './execute.js';
import { planDistribution } from './plan.js';
import { decodeResource, type CopyObject } from './resource.js';
import { resourceHash } from './resource-hash.js';
import { computeStatus, failureSummary, retryableFailures, sameStatus, statusPatch } from './status.js';
import { targetNamespaces } from './targets.js';
import { copyHandler, namespaceHandler, rdHandler } from './watch-handlers.js';
import { WriteMemo } from './write-memo.js';

const FIELD_MANAGER = 'kruise-ts-resourcedistribution';
/** Copy writes in flight per reconcile; with 3 workers at most 3× this against the apiserver. */
export const WRITE_CONCURRENCY = 32;
/**
 * Copy events come in bursts (mostly the echoes of our own writes): an RD they wake waits this long, so a burst costs
 * one reconcile rather than one per copy (each reconcile plans every target namespace).
 */
export const COPY_EVENT_DELAY_MS = 100;

function copyApi(rest: KubeRest, r: Resource): CopyApi {
  return {
    get: (namespace, name) => rest.find<CopyObject>(r, { namespace, name }),
    create: async (obj) => { await rest.create(r, obj, { fieldManager: FIELD_MANAGER }); },
    replace: async (obj) => { await rest.replace(r, obj, { fieldManager: FIELD_MANAGER }); },
    delete: async (namespace, name, uid) => {
      try {
        await rest.delete(r, { namespace, name }, { uid });
      } catch (err) {
        // 409: the uid precondition failed — the name now belongs to another object, which is not ours to remove.
        if ((err as { code?: unknown }).code !== 409) throw err;
      }
    },
  };
}

export const resourceDistributionController: Controller = {
  name: 'resourcedistribution-controller',
  workers: 3,
  featureGate: 'ResourceDistributionGate',
  setup({ informers, rest, clock }, queue) {
    const rds = informers.cache<ResourceDistribution>(resources.resourceDistributions);
    const namespaces = informers.cache<V1Namespace>(resources.namespaces);
    const copies = {
      ConfigMap: informers.cache<CopyObject>(resources.configMaps),
      Secret: informers.cache<CopyObject>(resources.secrets),
    };
    // Our own writes, until the caches show them: copies by `<kind>/<ns>/<name>` (value `<hash>` or `deleted`),
    // statuses by RD name.
    const copyWrites = new WriteMemo<string>(clock);
    const statusWrites = new WriteMemo<ResourceDistributionStatus>(clock);
    const add = (key: string) => queue.add(key);
    const onRd = rdHandler(add);
    rds.onChange((rd, verb) => {
      statusWrites.seen(rd.metadata?.name ?? '', rd.metadata?.resourceVersion, verb === 'delete');
      onRd(rd, verb);
    });
    namespaces.onChange(namespaceHandler(() => rds.list(), add));
    for (const kind of ['ConfigMap', 'Secret'] as const) {
      const onCopy = copyHandler(kind, () => rds.list(), (key) => queue.addAfter(key, COPY_EVENT_DELAY_MS));
      copies[kind].onChange((obj, verb) => {
        copyWrites.seen(`${kind}/${obj.metadata?.namespace}/${obj.metadata?.name}`, obj.metadata?.resourceVersion, verb === 'delete');
        onCopy(obj, verb);
      });
    }
    const apis = { ConfigMap: copyApi(rest, resources.configMaps), Secret: copyApi(rest, resources.secrets) };

    return async (key, { log }) => {
      const rd = rds.get(key);
      // Deleting: garbage collection removes the copies; re-creating them now would fight it.
      if (!rd?.metadata?.uid || rd.metadata.deletionTimestamp) return;
      const resource = decodeResource(rd.spec?.resource);
      if ('error' in resource) {
        // As upstream: a resource that cannot be decoded is not retried; an edit of the RD brings it back.
        log.warn({ problem: resource.error }, 'cannot distribute spec.resource');
        return;
      }
      let targets;
      try {
        targets = targetNamespaces(rd.spec?.targets, namespaces.list());
      } catch (err) {
        if (err instanceof LabelSelectorError) throw new TerminalError(`spec.targets.namespaceLabelSelector: ${err.message}`);
        throw err;
      }
      // Each step below walks every target namespace: a turn of the loop between them (shared/reconcile/yield.ts).
      await yieldToLoop();
      const cache = copies[resource.kind];
      const hash = resourceHash(rd.spec?.resource);
      const memoKey = (n: string) => `${resource.kind}/${n}/${resource.name}`;
      const plan = planDistribution({
        rd, resource, ...targets,
        namespace: (n) => namespaces.get(n),
        existing: (n) => cache.get(`${n}/${resource.name}`),
        inFlight: (n) => {
          const wrote = copyWrites.pending(memoKey(n), cache.get(`${n}/${resource.name}`)?.metadata?.resourceVersion);
          return wrote === 'deleted' ? 'deleted' : wrote === hash ? 'written' : undefined;
        },
      });
      await yieldToLoop();
      const now = new Date(clock.now());
      const outcome = await executePlan(plan, {
        rd, resource, hash, now, api: apis[resource.kind], concurrency: WRITE_CONCURRENCY,
        onWritten: (n, replacedRv, what) => copyWrites.wrote(memoKey(n), replacedRv, what === 'deleted' ? 'deleted' : hash),
      });

      // The status we last wrote stands in for the cache's until the cache shows it (transition times included).
      const current = statusWrites.pending(key, rd.metadata.resourceVersion) ?? rd.status;
      const status = computeStatus({ ...rd, status: current }, targets.matched.length, outcome.succeeded, outcome.failures, now);
      if (!sameStatus(current, status)) {
        await rest.patch(resources.resourceDistributions, { name: key, subresource: 'status' }, 'merge', statusPatch(status), { fieldManager: FIELD_MANAGER });
        statusWrites.wrote(key, rd.metadata.resourceVersion, status);
      }
      const { created, updated, deleted } = outcome.writes;
      if (created + updated + deleted > 0 || outcome.failures.length > 0) {
        log.info({ kind: resource.kind, resource: resource.name, desired: targets.matched.length, succeeded: outcome.succeeded, created, updated, deleted,
          failed: outcome.failures.map((f) => `${f.condition}:${f.namespace}`).slice(0, 20) }, 'distributed');
      }
      const retry = retryableFailures(outcome.failures);
      if (retry.length > 0) throw new Error(failureSummary(retry));
    };
  },
};
