// The NodeImage reconcile of the node's puller (spec/daemon-and-controllers.md §2.4): one key, the node's own
// NodeImage, read from the informer cache and handed to ImagePuller.sync, whose requeue interval it returns.
import type { NodeImage } from '../../shared/api/node-image.js';
import type { ReconcileFn } from '../../shared/reconcile/types.js';
import type { SyncResult } from './puller.js';
import { isStatusConflict } from './status-writer.js';

export interface NodeImageReconcilerDeps {
  /** The cached NodeImage by name, undefined when it does not exist. */
  get(name: string): NodeImage | undefined;
  puller: { sync(nodeImage: NodeImage): Promise<SyncResult>; stop(): void };
  random?: () => number;
}

/** Retry a conflicted status write once the informer had a moment to deliver the newer object. */
const CONFLICT_RETRY_MS = 500;

export function nodeImageReconciler(deps: NodeImageReconcilerDeps): ReconcileFn {
  const random = deps.random ?? Math.random;
  return async (key, { log }) => {
    const nodeImage = deps.get(key);
    if (!nodeImage) {
      // Nothing to report on any more (the manager deletes a NodeImage with its Node): pulls for it are moot.
      deps.puller.stop();
      return;
    }
    try {
      const { requeueAfterMs, written, status } = await deps.puller.sync(nodeImage);
      if (written) log.debug({ desired: status.desired, succeeded: status.succeeded, failed: status.failed, pulling: status.pulling }, 'status written');
      return { requeueAfterMs };
    } catch (err) {
      // A conflict is routine (the manager's NodeImage controller writes this status too): recompute, no error log.
      if (!isStatusConflict(err)) throw err;
      log.info('status write conflicted; recomputing');
      return { requeueAfterMs: CONFLICT_RETRY_MS + Math.floor(random() * CONFLICT_RETRY_MS) };
    }
  };
}
