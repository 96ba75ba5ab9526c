// The calls a worker's handlers make to the main thread, which owns the API clients: each side of the RPC.
// Main: the methods, each already bounded by its own timeout (main.ts, caches.ts). Worker: a client whose every call
// also gives up after `timeoutMs`, so a handler never waits on main longer than that.
import type { Pod } from '../../shared/api/meta.js';
import type { V1Node } from '@kubernetes/client-node';
import type { AdmissionCaches } from '../caches.js';
import type { CanWrite } from '../handlers/write-access.js';
import type { RouteDeps } from '../handlers/index.js';
import type { FromWorker, RpcMethod, ToWorker } from './protocol.js';

export type RpcHost = Partial<Record<RpcMethod, (...args: never[]) => Promise<unknown>>>;

/** The main thread's side, over the live caches and the optional API calls (the same ones makeRoutes gets in-thread). */
export function rpcHost(caches: Pick<AdmissionCaches, 'fetchPod' | 'fetchNode' | 'sidecarSetsSynced'> & Partial<Pick<AdmissionCaches, 'workloadSpreadApi'>>, o: { dryRunCreate?: (r: Record<string, unknown>) => Promise<string | undefined>; canWrite?: CanWrite }
  & Pick<RouteDeps, 'spendPub' | 'replicaSetOwner' | 'countForDeletion'> = {}): RpcHost {
  return {
    fetchPod: caches.fetchPod,
    fetchNode: caches.fetchNode,
    sidecarSetsSynced: caches.sidecarSetsSynced,
    ...(caches.workloadSpreadApi ? { ...caches.workloadSpreadApi } : {}),
    ...(o.dryRunCreate ? { dryRunCreate: o.dryRunCreate } : {}),
    ...(o.canWrite ? { canWrite: o.canWrite } : {}),
    ...(o.spendPub ? { spendPub: o.spendPub } : {}),
    ...(o.replicaSetOwner ? { replicaSetOwner: o.replicaSetOwner } : {}),
    ...(o.countForDeletion ? { countForDeletion: o.countForDeletion } : {}),
  };
}

export interface RpcClient {
  call(method: 'fetchPod', args: [string, string]): Promise<Pod | undefined>;
  call(method: 'fetchNode', args: [string]): Promise<V1Node | undefined>;
  call(method: RpcMethod, args: unknown[]): Promise<unknown>;
  settle(m: Extract<ToWorker, { t: 'rpc-reply' }>): void;
}

/** The worker's side: `post` sends to main; `job` is the request the calling handler serves (AsyncLocalStorage). */
export function rpcClient(post: (m: FromWorker) => void, job: () => number | undefined, timeoutMs: number): RpcClient {
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  let next = 0;
  return {
    call(method: RpcMethod, args: unknown[]): Promise<never> {
      const id = job();
      if (id === undefined) return Promise.reject(new Error(`${method}: called outside a request`));
      const rid = ++next;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(rid);
          reject(new Error(`${method}: no answer from the webhook's main thread within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(rid, { resolve: resolve as (v: unknown) => void, reject, timer });
        post({ t: 'rpc', id, rid, method, args });
      });
    },
    settle(m) {
      const p = pending.get(m.rid);
      if (!p) return;
      pending.delete(m.rid);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.message));
    },
  };
}
