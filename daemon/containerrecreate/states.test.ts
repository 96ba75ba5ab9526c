import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import type { ObservedContainer } from './observed.js';
import { currentStates, syncedStatuses } from './states.js';
import { crr, running, states, syncedAnnotation, T0 } from './testing.js';

interface Case {
  name: string;
  crr: ContainerRecreateRequest;
  observed: ObservedContainer[];
  now?: number;
  want: ReturnType<typeof states>;
}

const two = [{ name: 'a', id: 'containerd://a-1' }, { name: 'b', id: 'containerd://b-1' }];

const cases: Case[] = [
  {
    name: 'the same container still running is Pending',
    crr: crr(), observed: [running('app', 'containerd://app-1')],
    want: states(['app', 'Pending']),
  },
  {
    name: 'no CRI container with that name is Pending with "not found container on Node"',
    crr: crr(), observed: [running('other', 'containerd://x')],
    want: states(['app', 'Pending', { message: 'not found container on Node' }]),
  },
  {
    name: 'the newest instance exited is Recreating and keeps isKilled',
    crr: crr({ status: { phase: 'Recreating', containerRecreateStates: states(['app', 'Recreating', { isKilled: true }]) } }),
    observed: [{ ...running('app', 'containerd://app-1'), state: 'exited' }],
    want: states(['app', 'Recreating', { isKilled: true }]),
  },
  {
    name: 'a new container ID is Recreating until the manager reports it ready',
    crr: crr(), observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 }), running('app', 'containerd://app-1')],
    want: states(['app', 'Recreating']),
  },
  {
    name: 'a new container ID reported ready by the manager is Succeeded',
    crr: crr({ annotations: syncedAnnotation({ name: 'app', containerID: 'containerd://app-2', ready: true }) }),
    observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })], now: T0 + 6_000,
    want: states(['app', 'Succeeded']),
  },
  {
    name: 'a ready report for an older container ID does not count',
    crr: crr({ annotations: syncedAnnotation({ name: 'app', containerID: 'containerd://app-1', ready: true }) }),
    observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })], now: T0 + 6_000,
    want: states(['app', 'Recreating']),
  },
  {
    name: 'a not-ready report keeps it Recreating',
    crr: crr({ annotations: syncedAnnotation({ name: 'app', containerID: 'containerd://app-2', ready: false }) }),
    observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })], now: T0 + 6_000,
    want: states(['app', 'Recreating']),
  },
  {
    name: 'minStartedSeconds holds Succeeded back until the container has run that long',
    crr: crr({ strategy: { minStartedSeconds: 10 }, annotations: syncedAnnotation({ name: 'app', containerID: 'containerd://app-2', ready: true }) }),
    observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })], now: T0 + 14_000,
    want: states(['app', 'Recreating']),
  },
  {
    name: 'minStartedSeconds passed gives Succeeded',
    crr: crr({ strategy: { minStartedSeconds: 10 }, annotations: syncedAnnotation({ name: 'app', containerID: 'containerd://app-2', ready: true }) }),
    observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })], now: T0 + 15_001,
    want: states(['app', 'Succeeded']),
  },
  {
    name: 'a higher restart count with the same ID is a restart',
    crr: crr(), observed: [running('app', 'containerd://app-1', { restartCount: 1 })],
    want: states(['app', 'Recreating']),
  },
  {
    name: 'a container started in a later second than the CRR was created is a restart',
    crr: crr(), observed: [running('app', 'containerd://app-1', { startedAtMs: T0 + 1_000 })],
    want: states(['app', 'Recreating']),
  },
  {
    name: 'a container started earlier in the CRR creation second is not taken for a restart',
    crr: crr({ createdAt: T0 }), observed: [running('app', 'containerd://app-1', { startedAtMs: T0 + 700 })],
    want: states(['app', 'Pending']),
  },
  {
    name: 'forceRecreate keeps an already restarted container Pending until we kill it ourselves',
    crr: crr({ strategy: { forceRecreate: true } }), observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })],
    want: states(['app', 'Pending']),
  },
  {
    name: 'forceRecreate after our kill follows the normal rules',
    crr: crr({ strategy: { forceRecreate: true }, status: { phase: 'Recreating', containerRecreateStates: states(['app', 'Recreating', { isKilled: true }]) } }),
    observed: [running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 })],
    want: states(['app', 'Recreating', { isKilled: true }]),
  },
  {
    name: 'Succeeded and Failed are sticky whatever CRI shows',
    crr: crr({ containers: two, status: { phase: 'Recreating', containerRecreateStates: states(['a', 'Succeeded', { isKilled: true }], ['b', 'Failed', { message: 'kill container error: x' }]) } }),
    observed: [],
    want: states(['a', 'Succeeded', { isKilled: true }], ['b', 'Failed', { message: 'kill container error: x' }]),
  },
  {
    name: 'the newest instance decides: an exited new one after a running old one is Recreating',
    crr: crr(),
    observed: [{ ...running('app', 'containerd://app-2', { startedAtMs: T0 + 5_000 }), state: 'exited' }, running('app', 'containerd://app-1')],
    want: states(['app', 'Recreating']),
  },
  {
    name: 'states follow spec order, one per container',
    crr: crr({ containers: two }), observed: [running('b', 'containerd://b-2', { startedAtMs: T0 + 5_000 }), running('a', 'containerd://a-1')],
    want: states(['a', 'Pending'], ['b', 'Recreating']),
  },
];

for (const tc of cases) {
  test(tc.name, () => {
    assert.deepEqual(currentStates(tc.crr, tc.observed, tc.now ?? T0 + 10_000), tc.want);
  });
}

test('an unparsable sync annotation reads as no reports', () => {
  assert.equal(syncedStatuses(crr({ annotations: { 'crr.apps.kruise.io/sync-container-statuses': '{not json' } })).size, 0);
  assert.equal(syncedStatuses(crr({ annotations: { 'crr.apps.kruise.io/sync-container-statuses': '{"name":"app"}' } })).size, 0);
});
