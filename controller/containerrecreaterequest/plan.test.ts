import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import { planReconcile, syncContainerStatuses, type Plan } from './plan.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function crr(o: {
  phase?: string; completedAt?: number; deleting?: boolean; active?: boolean; finalizer?: boolean; deadline?: number; ttl?: number;
  unready?: number; stamped?: boolean; annotations?: Record<string, string>; states?: { name: string; phase: string }[];
} = {}): ContainerRecreateRequest {
  return {
    metadata: {
      namespace: 'default', name: 'crr-1', creationTimestamp: iso(T0) as never,
      ...(o.deleting ? { deletionTimestamp: iso(T0 + 1_000) as never } : {}),
      ...(o.finalizer ? { finalizers: ['crr.apps.kruise.io/unready-acquired'] } : {}),
      labels: { 'crr.apps.kruise.io/pod-uid': 'u1', 'crr.apps.kruise.io/node-name': 'n1', ...(o.active === false ? {} : { 'crr.apps.kruise.io/active': 'true' }) },
      annotations: { ...(o.stamped ? { 'crr.apps.kruise.io/unready-acquired': iso(T0 + 2_000) } : {}), ...o.annotations },
    },
    spec: {
      podName: 'web-0', containers: [{ name: 'app', statusContext: { containerID: 'containerd://a1', restartCount: 0 } }, { name: 'side', statusContext: { containerID: 'containerd://s1', restartCount: 0 } }],
      strategy: { failurePolicy: 'Fail', ...(o.unready != null ? { unreadyGracePeriodSeconds: o.unready } : {}) },
      ...(o.deadline != null ? { activeDeadlineSeconds: o.deadline } : {}),
      ...(o.ttl != null ? { ttlSecondsAfterFinished: o.ttl } : {}),
    },
    status: {
      ...(o.phase ? { phase: o.phase } : {}),
      ...(o.completedAt != null ? { completionTime: iso(o.completedAt) } : {}),
      ...(o.states ? { containerRecreateStates: o.states } : {}),
    },
  };
}

function pod(o: { uid?: string; deleting?: boolean; gate?: boolean; statuses?: { name: string; id: string; ready: boolean; startedAt?: number; restarts?: number }[] } = {}): Pod {
  return {
    metadata: { namespace: 'default', name: 'web-0', uid: o.uid ?? 'u1', ...(o.deleting ? { deletionTimestamp: iso(T0) as never } : {}) },
    spec: { containers: [{ name: 'app' }, { name: 'side' }], ...(o.gate ? { readinessGates: [{ conditionType: 'KruisePodReady' }] } : {}) },
    status: {
      containerStatuses: (o.statuses ?? []).map((s) => ({
        name: s.name, containerID: s.id, ready: s.ready, restartCount: s.restarts ?? 0, image: 'x', imageID: 'y',
        state: s.startedAt != null ? { running: { startedAt: iso(s.startedAt) as never } } : { waiting: { reason: 'CrashLoopBackOff' } },
      })),
    },
  };
}

interface Case { name: string; crr: ContainerRecreateRequest; pod?: Pod; now?: number; want: Plan }

const cases: Case[] = [
  { name: 'a missing pod completes the CRR with "pod has gone"', crr: crr({ phase: 'Recreating' }), want: { actions: [{ type: 'complete', message: 'pod has gone' }] } },
  { name: 'a pod with another UID is gone', crr: crr({ phase: 'Recreating' }), pod: pod({ uid: 'u2' }), want: { actions: [{ type: 'complete', message: 'pod has gone' }] } },
  { name: 'a deleting pod is gone', crr: crr({ phase: 'Recreating' }), pod: pod({ deleting: true }), want: { actions: [{ type: 'complete', message: 'pod has gone' }] } },
  {
    name: 'phase "" waits for the daemon up to one minute from creation',
    crr: crr(), pod: pod(), now: T0 + 45_000, want: { actions: [], requeueAfterMs: 15_000 },
  },
  {
    name: 'phase "" after one minute: the daemon has not responded',
    crr: crr(), pod: pod(), now: T0 + 60_000, want: { actions: [{ type: 'complete', message: 'daemon has not responded for a long time' }] },
  },
  {
    name: 'the earliest deadline decides the requeue',
    crr: crr({ deadline: 20 }), pod: pod(), now: T0 + 5_000, want: { actions: [], requeueAfterMs: 15_000 },
  },
  {
    name: 'activeDeadlineSeconds passed completes the CRR and fails unfinished containers',
    crr: crr({ phase: 'Recreating', deadline: 10, states: [{ name: 'app', phase: 'Succeeded' }, { name: 'side', phase: 'Recreating' }] }), pod: pod(), now: T0 + 10_000,
    want: { actions: [{ type: 'complete', message: 'recreating has exceeded the activeDeadlineSeconds', states: [
      { name: 'app', phase: 'Succeeded' }, { name: 'side', phase: 'Failed', message: 'recreating has exceeded the activeDeadlineSeconds' }] }] },
  },
  {
    name: 'Recreating: statuses of containers running since the CRR was created are synced (an empty list too)',
    crr: crr({ phase: 'Recreating' }), pod: pod({ statuses: [{ name: 'app', id: 'containerd://a1', ready: true, startedAt: T0 - 60_000 }] }),
    want: { actions: [{ type: 'sync-container-statuses', value: '[]' }] },
  },
  {
    name: 'an unchanged sync annotation is not rewritten',
    crr: crr({ phase: 'Recreating', annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' } }), pod: pod(),
    want: { actions: [] },
  },
  {
    name: 'unreadyGracePeriodSeconds with the gate: finalizer, pod not-ready, then the stamp',
    crr: crr({ phase: 'Recreating', unready: 3, annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' } }), pod: pod({ gate: true }),
    want: { actions: [{ type: 'add-finalizer' }, { type: 'acquire-pod-not-ready' }, { type: 'stamp-unready-acquired' }] },
  },
  {
    name: 'unreadyGracePeriodSeconds without the gate: only the stamp (the daemon still waits)',
    crr: crr({ phase: 'Recreating', unready: 3, annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' } }), pod: pod(),
    want: { actions: [{ type: 'stamp-unready-acquired' }] },
  },
  {
    name: 'unreadyGracePeriodSeconds: a finalizer already there is not added again',
    crr: crr({ phase: 'Recreating', unready: 3, finalizer: true, annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' } }), pod: pod({ gate: true }),
    want: { actions: [{ type: 'acquire-pod-not-ready' }, { type: 'stamp-unready-acquired' }] },
  },
  {
    name: 'unreadyGracePeriodSeconds already stamped: nothing more',
    crr: crr({ phase: 'Recreating', unready: 3, finalizer: true, stamped: true, annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' } }), pod: pod({ gate: true }),
    want: { actions: [] },
  },
  {
    name: 'completed with the finalizer: release the pod, drop the finalizer, then the active label',
    crr: crr({ phase: 'Completed', completedAt: T0 + 9_000, finalizer: true }), pod: pod({ gate: true }),
    want: { actions: [{ type: 'release-pod-not-ready' }, { type: 'remove-finalizer' }, { type: 'remove-active-label' }] },
  },
  {
    name: 'completed with the finalizer but the pod gone: only drop the finalizer',
    crr: crr({ phase: 'Completed', completedAt: T0 + 9_000, finalizer: true, active: false }),
    want: { actions: [{ type: 'remove-finalizer' }] },
  },
  {
    name: 'deleting: release, then nothing else (no label or TTL work)',
    crr: crr({ phase: 'Recreating', deleting: true, finalizer: true }), pod: pod({ gate: true }),
    want: { actions: [{ type: 'release-pod-not-ready' }, { type: 'remove-finalizer' }] },
  },
  {
    name: 'completed without TTL: done',
    crr: crr({ phase: 'Completed', completedAt: T0 + 9_000, active: false }), pod: pod(), want: { actions: [] },
  },
  {
    name: 'completed with TTL not yet passed: requeue for the remainder',
    crr: crr({ phase: 'Completed', completedAt: T0 + 9_000, active: false, ttl: 30 }), pod: pod(), now: T0 + 20_000,
    want: { actions: [], requeueAfterMs: 19_000 },
  },
  {
    name: 'completed with TTL passed: delete',
    crr: crr({ phase: 'Completed', completedAt: T0 + 9_000, active: false, ttl: 30 }), now: T0 + 39_000,
    want: { actions: [{ type: 'delete' }] },
  },
];

for (const tc of cases) {
  test(tc.name, () => {
    assert.deepEqual(planReconcile({ crr: tc.crr, pod: tc.pod, nowMs: tc.now ?? T0 + 1_000 }), tc.want);
  });
}

test('sync statuses: running since creation (same second counts), in spec order, Go field order, containerID omitted when empty', () => {
  const p = pod({ statuses: [
    { name: 'side', id: '', ready: false, startedAt: T0, restarts: 2 },
    { name: 'app', id: 'containerd://a2', ready: true, startedAt: T0 + 4_000, restarts: 1 },
  ] });
  assert.equal(syncContainerStatuses(crr(), p),
    '[{"name":"app","ready":true,"restartCount":1,"containerID":"containerd://a2"},{"name":"side","ready":false,"restartCount":2}]');
  assert.equal(syncContainerStatuses(crr(), pod({ statuses: [{ name: 'app', id: 'x', ready: true }] })), '[]');
});
