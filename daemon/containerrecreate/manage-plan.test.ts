import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequestStrategy } from '../../shared/api/container-recreate-request.js';
import { planManage, type KillOutcome, type ManageDecision } from './manage-plan.js';
import { crr, states } from './testing.js';

type S = ReturnType<typeof states>;

interface Case {
  name: string;
  strategy?: ContainerRecreateRequestStrategy;
  stored?: S;
  current: S;
  present?: string[];
  kills?: [string, KillOutcome][];
  want: ManageDecision;
}

const two = [{ name: 'a', id: 'containerd://a-1' }, { name: 'b', id: 'containerd://b-1' }];
const boom: KillOutcome = { ok: false, error: 'RuntimeService/StopContainer: boom' };

const cases: Case[] = [
  {
    name: 'states that differ from the stored ones are patched first, before any kill',
    current: states(['a', 'Pending'], ['b', 'Pending']),
    want: { type: 'patch-states', states: states(['a', 'Pending'], ['b', 'Pending']) },
  },
  {
    name: 'the first Pending container is killed',
    stored: states(['a', 'Pending'], ['b', 'Pending']), current: states(['a', 'Pending'], ['b', 'Pending']),
    want: { type: 'kill', container: 'a' },
  },
  {
    name: 'a successful kill marks it Recreating+isKilled and ends the round (one kill per round)',
    stored: states(['a', 'Pending'], ['b', 'Pending']), current: states(['a', 'Pending'], ['b', 'Pending']), kills: [['a', { ok: true }]],
    want: { type: 'patch-states', states: states(['a', 'Recreating', { isKilled: true }], ['b', 'Pending']) },
  },
  {
    name: 'without orderedRecreate the next container is killed while the first is still Recreating',
    stored: states(['a', 'Recreating', { isKilled: true }], ['b', 'Pending']), current: states(['a', 'Recreating', { isKilled: true }], ['b', 'Pending']),
    want: { type: 'kill', container: 'b' },
  },
  {
    name: 'with orderedRecreate the walk waits for the Recreating container',
    strategy: { orderedRecreate: true },
    stored: states(['a', 'Recreating', { isKilled: true }], ['b', 'Pending']), current: states(['a', 'Recreating', { isKilled: true }], ['b', 'Pending']),
    want: { type: 'wait' },
  },
  {
    name: 'with orderedRecreate the second container is killed once the first Succeeded',
    strategy: { orderedRecreate: true },
    stored: states(['a', 'Succeeded', { isKilled: true }], ['b', 'Pending']), current: states(['a', 'Succeeded', { isKilled: true }], ['b', 'Pending']),
    want: { type: 'kill', container: 'b' },
  },
  {
    name: 'a Recreating container we did not kill is marked isKilled',
    stored: states(['a', 'Recreating'], ['b', 'Succeeded']), current: states(['a', 'Recreating'], ['b', 'Succeeded']),
    want: { type: 'patch-states', states: states(['a', 'Recreating', { isKilled: true }], ['b', 'Succeeded']) },
  },
  {
    name: 'a kill error with Fail marks it Failed and stops',
    stored: states(['a', 'Pending'], ['b', 'Pending']), current: states(['a', 'Pending'], ['b', 'Pending']), kills: [['a', boom]],
    want: { type: 'patch-states', states: states(['a', 'Failed', { message: 'kill container error: RuntimeService/StopContainer: boom' }], ['b', 'Pending']) },
  },
  {
    name: 'a kill error with Ignore moves on to the next container',
    strategy: { failurePolicy: 'Ignore' },
    stored: states(['a', 'Pending'], ['b', 'Pending']), current: states(['a', 'Pending'], ['b', 'Pending']), kills: [['a', boom]],
    want: { type: 'kill', container: 'b' },
  },
  {
    name: 'a Failed container with Fail completes the CRR with the reason',
    stored: states(['a', 'Failed', { message: 'kill container error: x' }], ['b', 'Pending']),
    current: states(['a', 'Failed', { message: 'kill container error: x' }], ['b', 'Pending']),
    want: { type: 'complete', message: 'failed to recreate container a: kill container error: x' },
  },
  {
    name: 'a container missing on the node fails it (Fail: patch now, complete next round)',
    present: ['b'],
    stored: states(['a', 'Pending', { message: 'not found container on Node' }], ['b', 'Pending']),
    current: states(['a', 'Pending', { message: 'not found container on Node' }], ['b', 'Pending']),
    want: { type: 'patch-states', states: states(['a', 'Failed', { message: 'not found container on Node' }], ['b', 'Pending']) },
  },
  {
    name: 'a container missing on the node with Ignore lets the others proceed',
    strategy: { failurePolicy: 'Ignore' }, present: ['b'],
    stored: states(['a', 'Pending', { message: 'not found container on Node' }], ['b', 'Pending']),
    current: states(['a', 'Pending', { message: 'not found container on Node' }], ['b', 'Pending']),
    want: { type: 'kill', container: 'b' },
  },
  {
    name: 'with Ignore a Failed container counts as completed',
    strategy: { failurePolicy: 'Ignore' },
    stored: states(['a', 'Failed', { message: 'not found container on Node' }], ['b', 'Succeeded', { isKilled: true }]),
    current: states(['a', 'Failed', { message: 'not found container on Node' }], ['b', 'Succeeded', { isKilled: true }]),
    want: { type: 'complete', message: 'failed to recreate container a: not found container on Node' },
  },
  {
    name: 'all Succeeded completes with an empty message',
    stored: states(['a', 'Succeeded', { isKilled: true }], ['b', 'Succeeded', { isKilled: true }]),
    current: states(['a', 'Succeeded', { isKilled: true }], ['b', 'Succeeded', { isKilled: true }]),
    want: { type: 'complete', message: '' },
  },
  {
    name: 'minStartedSeconds requeues while waiting',
    strategy: { minStartedSeconds: 5 },
    stored: states(['a', 'Recreating', { isKilled: true }], ['b', 'Recreating', { isKilled: true }]),
    current: states(['a', 'Recreating', { isKilled: true }], ['b', 'Recreating', { isKilled: true }]),
    want: { type: 'wait', requeueAfterMs: 5_000 },
  },
  {
    name: 'stored states with explicit empty fields compare equal to omitted ones',
    stored: [{ name: 'a', phase: 'Recreating', message: '', isKilled: true }, { name: 'b', phase: 'Recreating', isKilled: true }],
    current: states(['a', 'Recreating', { isKilled: true }], ['b', 'Recreating', { isKilled: true }]),
    want: { type: 'wait' },
  },
];

for (const tc of cases) {
  test(tc.name, () => {
    const c = crr({ containers: two, strategy: tc.strategy, ...(tc.stored ? { status: { phase: 'Recreating', containerRecreateStates: tc.stored } } : {}) });
    const got = planManage({ crr: c, states: tc.current, presentNames: new Set(tc.present ?? ['a', 'b']), killOutcomes: new Map(tc.kills ?? []) });
    assert.deepEqual(got, tc.want);
  });
}
