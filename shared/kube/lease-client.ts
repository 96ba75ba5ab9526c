// LeaseClient over coordination.k8s.io/v1 with @kubernetes/client-node 1.4.0 (object-parameter API).
// Maps 404 to "absent" and 409 (AlreadyExists on create, Conflict on a stale resourceVersion) to LeaseConflictError,
// which is all leader election needs to know about the API.
import { ApiException, V1MicroTime, type CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { LeaseConflictError, type LeaseClient, type LeaseRecord } from './leader-election.js';

/** The subset of CoordinationV1Api used here, so tests can pass a stub without a cluster. */
export type LeaseApi = Pick<CoordinationV1Api, 'readNamespacedLease' | 'createNamespacedLease' | 'replaceNamespacedLease'>;

export function kubeLeaseClient(api: LeaseApi): LeaseClient {
  return {
    async get(namespace, name) {
      try {
        return fromV1(await api.readNamespacedLease({ name, namespace }), namespace, name);
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw new Error(`get lease ${namespace}/${name}`, { cause: err });
      }
    },
    async create(lease) {
      try {
        return fromV1(await api.createNamespacedLease({ namespace: lease.namespace, body: toV1(lease) }), lease.namespace, lease.name);
      } catch (err) {
        throw wrap(err, 'create', lease);
      }
    },
    async replace(lease) {
      try {
        return fromV1(await api.replaceNamespacedLease({ name: lease.name, namespace: lease.namespace, body: toV1(lease) }), lease.namespace, lease.name);
      } catch (err) {
        throw wrap(err, 'replace', lease);
      }
    },
  };
}

function statusOf(err: unknown): number | undefined {
  return err instanceof ApiException ? err.code : undefined;
}

function wrap(err: unknown, verb: string, lease: LeaseRecord): Error {
  const what = `${verb} lease ${lease.namespace}/${lease.name}`;
  return statusOf(err) === 409 ? new LeaseConflictError(what, { cause: err }) : new Error(what, { cause: err });
}

/** V1MicroTime serialises with the six fractional digits MicroTime's RFC3339Micro parser requires. */
const micro = (ms: number | undefined) => (ms === undefined ? undefined : new V1MicroTime(ms));

/** The deserializer leaves MicroTime fields as strings (it has no V1MicroTime mapping), so accept both. */
function millis(t: Date | string | undefined): number | undefined {
  if (t === undefined || t === null) return undefined;
  const ms = new Date(t).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

export function toV1(l: LeaseRecord): V1Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: l.name, namespace: l.namespace, resourceVersion: l.resourceVersion },
    spec: {
      // An empty holder is sent as absent, which is what client-go's release writes (holderIdentity omitempty).
      holderIdentity: l.holderIdentity || undefined,
      leaseDurationSeconds: l.leaseDurationSeconds,
      acquireTime: micro(l.acquireTime),
      renewTime: micro(l.renewTime),
      leaseTransitions: l.leaseTransitions,
    },
  };
}

export function fromV1(v: V1Lease, namespace: string, name: string): LeaseRecord {
  const s = v.spec ?? {};
  return {
    namespace: v.metadata?.namespace ?? namespace,
    name: v.metadata?.name ?? name,
    resourceVersion: v.metadata?.resourceVersion,
    holderIdentity: s.holderIdentity || undefined,
    leaseDurationSeconds: s.leaseDurationSeconds,
    acquireTime: millis(s.acquireTime as Date | string | undefined),
    renewTime: millis(s.renewTime as Date | string | undefined),
    leaseTransitions: s.leaseTransitions,
  };
}
