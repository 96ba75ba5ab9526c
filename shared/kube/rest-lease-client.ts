// LeaseClient over KubeRest: leader election for a process that loads nothing of @kubernetes/client-node (the
// controller manager; lease-client.ts is the same over client-node's CoordinationV1Api). 404 is "absent"; 409
// (AlreadyExists on create, Conflict on a stale resourceVersion) is LeaseConflictError.
import { LeaseConflictError, type LeaseClient, type LeaseRecord } from './leader-election.js';
import { resources } from './resources.js';
import { isConflict, isNotFound, type KubeRest } from './rest.js';

interface LeaseObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string; leaseTransitions?: number };
}

/** MicroTime: RFC 3339 with exactly six fractional digits, which the apiserver's parser requires. */
export const microTime = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'));

function millis(t: string | undefined): number | undefined {
  if (!t) return undefined;
  const ms = new Date(t).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

export function toLeaseObject(l: LeaseRecord): LeaseObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: l.name, namespace: l.namespace, resourceVersion: l.resourceVersion },
    spec: {
      // An empty holder is sent as absent, which is what client-go's release writes (holderIdentity omitempty).
      holderIdentity: l.holderIdentity || undefined,
      leaseDurationSeconds: l.leaseDurationSeconds,
      acquireTime: microTime(l.acquireTime),
      renewTime: microTime(l.renewTime),
      leaseTransitions: l.leaseTransitions,
    },
  };
}

export function fromLeaseObject(v: LeaseObject, namespace: string, name: string): LeaseRecord {
  const s = v.spec ?? {};
  return {
    namespace: v.metadata?.namespace ?? namespace,
    name: v.metadata?.name ?? name,
    resourceVersion: v.metadata?.resourceVersion,
    holderIdentity: s.holderIdentity || undefined,
    leaseDurationSeconds: s.leaseDurationSeconds,
    acquireTime: millis(s.acquireTime),
    renewTime: millis(s.renewTime),
    leaseTransitions: s.leaseTransitions,
  };
}

function wrap(err: unknown, verb: string, lease: LeaseRecord): Error {
  const what = `${verb} lease ${lease.namespace}/${lease.name}`;
  return isConflict(err) ? new LeaseConflictError(what, { cause: err }) : new Error(what, { cause: err });
}

export function restLeaseClient(rest: KubeRest): LeaseClient {
  return {
    async get(namespace, name) {
      try {
        return fromLeaseObject(await rest.get<LeaseObject & { metadata: object }>(resources.leases, { namespace, name }), namespace, name);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw new Error(`get lease ${namespace}/${name}`, { cause: err });
      }
    },
    async create(lease) {
      try {
        return fromLeaseObject(await rest.create(resources.leases, toLeaseObject(lease) as LeaseObject & { metadata: object }), lease.namespace, lease.name);
      } catch (err) {
        throw wrap(err, 'create', lease);
      }
    },
    async replace(lease) {
      try {
        return fromLeaseObject(await rest.replace(resources.leases, toLeaseObject(lease) as LeaseObject & { metadata: object }), lease.namespace, lease.name);
      } catch (err) {
        throw wrap(err, 'replace', lease);
      }
    },
  };
}
