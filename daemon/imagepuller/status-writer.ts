// Writes the puller's status to the NodeImage status subresource: a full replace (PUT .../status) guarded by
// resourceVersion, as upstream's UpdateStatus (spec/daemon-and-controllers.md §2.4 step 4). A conflict means
// someone else (the manager's NodeImage controller) wrote in between: the caller requeues and recomputes.
import { KRUISE_API_VERSION_V1BETA1 } from '../../shared/api/meta.js';
import type { NodeImage, NodeImageStatus } from '../../shared/api/node-image.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';

/** The one call the writer makes; `restNodeImageStatusApi` adapts KubeRest, tests pass a fake. */
export interface NodeImageStatusApi {
  /** Resolves the stored object; rejects with `code` 409 on a stale resourceVersion, 404 when it is gone. */
  replaceStatus(name: string, body: NodeImage): Promise<NodeImage>;
}

export function restNodeImageStatusApi(rest: KubeRest): NodeImageStatusApi {
  return { replaceStatus: (_name, body) => rest.replace(resources.nodeImages, body, { subresource: 'status' }) };
}

const codeOf = (err: unknown): number | undefined => (err as { code?: number })?.code;

/** How many of our own writes to remember; the informer is rarely more than one or two behind. */
const CHAIN_LIMIT = 16;

/**
 * Returns writeStatus for the puller. The informer's copy lags our own writes, and guarding the next write with
 * that copy's resourceVersion would conflict with ourselves. So the writer remembers which resourceVersion each
 * of its writes turned into and, when the cached one is one it produced the successor of, guards with the newest
 * one in that chain instead. A write by anyone else still breaks the chain and conflicts, as it must.
 * A NodeImage deleted meanwhile (404) is not an error: there is nothing left to report on.
 */
export function nodeImageStatusWriter(api: NodeImageStatusApi): (nodeImage: NodeImage, status: NodeImageStatus) => Promise<void> {
  const successor = new Map<string, string>();
  return async (nodeImage, status) => {
    const name = nodeImage.metadata?.name;
    const cached = nodeImage.metadata?.resourceVersion;
    if (!name || !cached) throw new Error('NodeImage without name or resourceVersion');
    let rv = cached;
    for (let i = 0; i < CHAIN_LIMIT && successor.has(`${name}/${rv}`); i++) rv = successor.get(`${name}/${rv}`)!;
    const body: NodeImage = { apiVersion: KRUISE_API_VERSION_V1BETA1, kind: 'NodeImage', metadata: { name, resourceVersion: rv }, status };
    let stored: NodeImage;
    try {
      stored = await api.replaceStatus(name, body);
    } catch (err) {
      if (codeOf(err) === 404) return;
      throw new Error(`write status of NodeImage ${name}`, { cause: err });
    }
    const next = stored.metadata?.resourceVersion;
    if (next) {
      successor.set(`${name}/${rv}`, next);
      while (successor.size > CHAIN_LIMIT) successor.delete(successor.keys().next().value as string);
    }
  };
}

/** True when `err` (or what it wraps) is the API server's 409 Conflict. */
export function isStatusConflict(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as Error).cause, depth++) if (codeOf(e) === 409) return true;
  return false;
}
