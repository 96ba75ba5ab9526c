// /mutate-apps-kruise-io-v1alpha1-containerrecreaterequest (spec §5.1). The Pod and its Node are fetched before the
// pure mutation runs, so the mutation itself sees only plain lookups.
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import type { V1Node } from '@kubernetes/client-node';
import { allowed } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import { ContainerRecreateRequestDecoder } from '../admission/decode-object.js';
import { decodeRequestObjects, isCreateOrUpdate, mutateByDiff, requestObject, requestOldObject, requireGate } from './common.js';

export interface CrrContext {
  operation: 'CREATE' | 'UPDATE';
  /** The request's namespace, for objects that carry none. */
  namespace?: string;
  getPod: (namespace: string, name: string) => Pod | undefined;
  getNode: (name: string) => V1Node | undefined;
}

export interface MutateCrrDeps {
  gates: Readonly<Record<string, boolean>>;
  mutate: (obj: ContainerRecreateRequest, old: ContainerRecreateRequest | undefined, ctx: CrrContext) => ContainerRecreateRequest;
  fetchPod: (namespace: string, name: string) => Promise<Pod | undefined>;
  fetchNode: (name: string) => Promise<V1Node | undefined>;
}

export function mutateContainerRecreateRequestRoute(deps: MutateCrrDeps): WebhookRoute {
  return {
    path: '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest',
    name: 'mutate-containerrecreaterequest',
    handler: async (req) => {
      requireGate(deps.gates, 'KruiseDaemon');
      if (!isCreateOrUpdate(req)) return allowed();
      decodeRequestObjects(req, ContainerRecreateRequestDecoder);
      const operation = req.operation as 'CREATE' | 'UPDATE';
      const crr = requestObject<ContainerRecreateRequest>(req);
      const namespace = crr.metadata?.namespace || req.namespace || '';
      const podName = crr.spec?.podName;
      // Only CREATE consults the Pod; prefetching keeps the mutation synchronous and free of clients.
      const pod = operation === 'CREATE' && podName ? await deps.fetchPod(namespace, podName) : undefined;
      const nodeName = pod?.spec?.nodeName;
      const node = nodeName ? await deps.fetchNode(nodeName) : undefined;
      const ctx: CrrContext = {
        operation,
        namespace,
        getPod: (ns, name) => (pod && ns === namespace && name === podName ? pod : undefined),
        getNode: (name) => (node && name === nodeName ? node : undefined),
      };
      return mutateByDiff<ContainerRecreateRequest>(req, (obj) => deps.mutate(obj, requestOldObject(req), ctx));
    },
  };
}
