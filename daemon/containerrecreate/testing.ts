// Builders for the CRR executor's tests: CRRs as the webhook leaves them, observed CRI containers, and an in-memory
// CRR store standing in for the API server (status writes bump the resourceVersion like the real one).
import {
  CRRActiveLabel, CRRNodeNameLabel, CRRPodUIDLabel,
  type ContainerRecreateRequest, type ContainerRecreateRequestContainerRecreateState as RecreateState,
  type ContainerRecreateRequestStatus, type ContainerRecreateRequestStrategy, type ProbeHandler,
} from '../../shared/api/container-recreate-request.js';
import type { CrrWriter } from './kube-adapters.js';
import type { ObservedContainer } from './observed.js';

export const T0 = Date.parse('2026-03-01T10:00:00Z');
export const POD_UID = 'pod-uid-1';

export interface CrrOptions {
  name?: string;
  containers?: { name: string; id: string; restartCount?: number; preStop?: ProbeHandler }[];
  strategy?: ContainerRecreateRequestStrategy;
  status?: ContainerRecreateRequestStatus;
  annotations?: Record<string, string>;
  createdAt?: number;
  resourceVersion?: string;
}

/** A CRR for pod default/web-0 with one container `app` (containerd://app-1) unless told otherwise. */
export function crr(o: CrrOptions = {}): ContainerRecreateRequest {
  const containers = o.containers ?? [{ name: 'app', id: 'containerd://app-1' }];
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest',
    metadata: {
      namespace: 'default', name: o.name ?? 'crr-1', uid: `uid-${o.name ?? 'crr-1'}`, resourceVersion: o.resourceVersion ?? '10',
      // Custom objects stay plain JSON, so times are strings at run time whatever V1ObjectMeta's type says.
      creationTimestamp: new Date(o.createdAt ?? T0).toISOString().replace('.000Z', 'Z') as unknown as Date,
      labels: { [CRRPodUIDLabel]: POD_UID, [CRRNodeNameLabel]: 'node-1', [CRRActiveLabel]: 'true' },
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: {
      podName: 'web-0',
      containers: containers.map((c) => ({
        name: c.name, statusContext: { containerID: c.id, restartCount: c.restartCount ?? 0 }, ...(c.preStop ? { preStop: c.preStop } : {}),
      })),
      strategy: { failurePolicy: 'Fail', terminationGracePeriodSeconds: 30, ...o.strategy },
    },
    ...(o.status ? { status: o.status } : {}),
  };
}

/** A running container; `startedAt` defaults to a minute before T0 (well before the CRR). */
export function running(name: string, id: string, extra: Partial<ObservedContainer> = {}): ObservedContainer {
  const criId = id.replace(/^[^:]+:\/\//, '');
  const startedAtMs = extra.startedAtMs ?? T0 - 60_000;
  return { id, criId, name, state: 'running', createdAtNs: BigInt(startedAtMs) * 1_000_000n, startedAtMs, restartCount: 0, ...extra };
}

export const states = (...s: [string, string, Partial<RecreateState>?][]): RecreateState[] =>
  s.map(([name, phase, extra]) => ({ name, phase, ...extra }));

export const syncedAnnotation = (...s: { name: string; containerID: string; ready: boolean; restartCount?: number }[]) => ({
  'crr.apps.kruise.io/sync-container-statuses': JSON.stringify(s.map((x) => ({ name: x.name, ready: x.ready, restartCount: x.restartCount ?? 1, containerID: x.containerID }))),
});

/** CRRs by `namespace/name`; writes replace the stored copy and bump its resourceVersion. */
export class MemoryCrrStore implements CrrWriter {
  readonly items = new Map<string, ContainerRecreateRequest>();
  readonly writes: { kind: 'status' | 'states'; name: string; body: unknown }[] = [];
  private rv = 100;

  put(c: ContainerRecreateRequest): void {
    this.items.set(`${c.metadata?.namespace}/${c.metadata?.name}`, structuredClone(c));
  }

  get(name: string, namespace = 'default'): ContainerRecreateRequest | undefined {
    return this.items.get(`${namespace}/${name}`);
  }

  list(): ContainerRecreateRequest[] {
    return [...this.items.values()];
  }

  async updateStatus(c: ContainerRecreateRequest, status: ContainerRecreateRequestStatus): Promise<ContainerRecreateRequest> {
    const stored = this.mustGet(c);
    if (stored.metadata?.resourceVersion !== c.metadata?.resourceVersion) throw Object.assign(new Error('conflict'), { code: 409 });
    this.writes.push({ kind: 'status', name: c.metadata!.name!, body: structuredClone(status) });
    return this.save({ ...stored, status: structuredClone(status) });
  }

  async patchStates(c: ContainerRecreateRequest, s: RecreateState[]): Promise<ContainerRecreateRequest> {
    const stored = this.mustGet(c);
    this.writes.push({ kind: 'states', name: c.metadata!.name!, body: structuredClone(s) });
    return this.save({ ...stored, status: { ...stored.status, containerRecreateStates: structuredClone(s) } });
  }

  private mustGet(c: ContainerRecreateRequest): ContainerRecreateRequest {
    const stored = this.get(c.metadata!.name!, c.metadata!.namespace);
    if (!stored) throw Object.assign(new Error('not found'), { code: 404 });
    return stored;
  }

  private save(c: ContainerRecreateRequest): ContainerRecreateRequest {
    c.metadata = { ...c.metadata, resourceVersion: String(++this.rv) };
    this.put(c);
    return structuredClone(c);
  }
}
