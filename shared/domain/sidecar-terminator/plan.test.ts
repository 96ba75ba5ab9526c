// The vectors of spec node-probes-and-sidecar-lifecycle.md §8.4 (upstream sidecar_terminator_controller_test.go and
// utils_test.go), as the steps SidecarTerminator plans.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sidecarSets } from './containers.js';
import { jobPod, main, sidecar, type PodOpts, type State } from './fixtures.js';
import { planTermination } from './plan.js';
import { isInterestingPod } from './qualify.js';
import type { Container } from '../../api/meta.js';

interface Case { name: string; containers: Container[]; states: Record<string, State>; opts?: PodOpts; want: ReturnType<typeof planTermination> }

const one = [main(), sidecar()];
const two = (opts: { ignore3?: boolean } = {}) => [main('main-1'), main('main-2'), sidecar('sidecar-1'), sidecar('sidecar-2'),
  ...(opts.ignore3 ? [sidecar('sidecar-3', { ignore: true })] : [])];
const onFailure: PodOpts = { restartPolicy: 'OnFailure' };

const normalNode: Case[] = [
  { name: 'main running, sidecar running: nothing', containers: one, states: { main: 'running', sidecar: 'running' }, want: [] },
  { name: 'main exit 137, sidecar running: CRR [sidecar]', containers: one, states: { main: 137, sidecar: 'running' }, want: [{ type: 'crr', containers: ['sidecar'] }] },
  { name: 'main 137, sidecar 137, phase Failed: nothing', containers: one, states: { main: 137, sidecar: 137 }, opts: { phase: 'Failed' }, want: [] },
  { name: 'main 0, sidecar running: CRR [sidecar]', containers: one, states: { main: 0, sidecar: 'running' }, want: [{ type: 'crr', containers: ['sidecar'] }] },
  { name: 'OnFailure, main running: nothing', containers: one, states: { main: 'running', sidecar: 'running' }, opts: onFailure, want: [] },
  { name: 'OnFailure, main 137 + sidecar 0: nothing', containers: one, states: { main: 137, sidecar: 0 }, opts: onFailure, want: [] },
  { name: 'OnFailure, main 0 + sidecar 0, phase Succeeded: nothing', containers: one, states: { main: 0, sidecar: 0 }, opts: { ...onFailure, phase: 'Succeeded' }, want: [] },
  { name: 'OnFailure, mains exit 0, sidecar-1 no state, sidecar-2 running: CRR [sidecar-1 sidecar-2]', containers: two(),
    states: { 'main-1': 0, 'main-2': 0, 'sidecar-1': 'none', 'sidecar-2': 'running' }, opts: onFailure, want: [{ type: 'crr', containers: ['sidecar-1', 'sidecar-2'] }] },
  { name: 'OnFailure, sidecar-1 exited, sidecar-2 no state: CRR [sidecar-2]', containers: two(),
    states: { 'main-1': 0, 'main-2': 0, 'sidecar-1': 0, 'sidecar-2': 'none' }, opts: onFailure, want: [{ type: 'crr', containers: ['sidecar-2'] }] },
  { name: 'OnFailure, main-2 not terminated: nothing', containers: two(),
    states: { 'main-1': 0, 'main-2': 'running', 'sidecar-1': 'running', 'sidecar-2': 'running' }, opts: onFailure, want: [] },
  { name: 'OnFailure, sidecar-3 ignore-exit-code, none terminated: CRR [sidecar-1 sidecar-2], phase unchanged', containers: two({ ignore3: true }),
    states: { 'main-1': 0, 'main-2': 0, 'sidecar-1': 'running', 'sidecar-2': 'running', 'sidecar-3': 'running' }, opts: onFailure,
    want: [{ type: 'crr', containers: ['sidecar-1', 'sidecar-2'] }] },
  { name: 'OnFailure, sidecar-1,2 exited, sidecar-3 (ignore) running: phase Succeeded, then CRR [sidecar-3]', containers: two({ ignore3: true }),
    states: { 'main-1': 0, 'main-2': 0, 'sidecar-1': 0, 'sidecar-2': 143, 'sidecar-3': 'running' }, opts: onFailure,
    want: [{ type: 'mark-terminated', phase: 'Succeeded' }, { type: 'crr', containers: ['sidecar-3'] }] },
  { name: 'Never, a main failed, only an ignore-exit-code sidecar left: phase Failed, then its CRR', containers: [main(), sidecar('quiet', { ignore: true })],
    states: { main: 1, quiet: 'running' }, want: [{ type: 'mark-terminated', phase: 'Failed' }, { type: 'crr', containers: ['quiet'] }] },
  { name: 'phase already Succeeded: the ignore-exit-code sidecar gets its CRR without a phase patch', containers: [main(), sidecar('quiet', { ignore: true })],
    states: { main: 0, quiet: 'running' }, opts: { phase: 'Succeeded' }, want: [{ type: 'crr', containers: ['quiet'] }] },
  { name: 'restartPolicy Always: never', containers: one, states: { main: 0, sidecar: 'running' }, opts: { restartPolicy: 'Always' }, want: [] },
  { name: 'phase Pending: never', containers: one, states: { main: 0, sidecar: 'running' }, opts: { phase: 'Pending' }, want: [] },
  { name: 'being deleted: never', containers: one, states: { main: 0, sidecar: 'running' }, opts: { deleting: true }, want: [] },
  { name: 'a container without status: the statuses are incomplete, nothing', containers: one, states: { main: 0 }, want: [] },
  { name: 'marker value TRUE in any case counts; only sidecars and Never qualify at once (quirk 13)', containers: [{ name: 's', env: [{ name: 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT', value: 'True' }] }],
    states: { s: 'running' }, want: [{ type: 'crr', containers: ['s'] }] },
  { name: 'a marker through valueFrom is not read: no sidecar', containers: [main(), { name: 's', env: [{ name: 'KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT', valueFrom: { fieldRef: { fieldPath: 'x' } } }] }],
    states: { main: 0, s: 'running' }, want: [] },
  { name: 'a native sidecar with the marker is not a sidecar here', containers: [main()], states: { main: 0 },
    opts: { initContainers: [{ ...sidecar('native'), restartPolicy: 'Always' }] }, want: [] },
];

describe('planTermination on a normal node (§8.4)', () => {
  for (const tc of normalNode) it(tc.name, () => assert.deepEqual(planTermination(jobPod(tc.containers, tc.states, tc.opts), false), tc.want));
});

/** TestInPlaceUpdateStrategy: how many containers get the exit-quickly image; never a CRR on a virtual-kubelet node. */
const inPlace: { name: string; containers: Container[]; states: Record<string, State>; opts?: PodOpts; vk?: boolean; want: number }[] = [
  { name: 'Never, main running', containers: one, states: { main: 'running', sidecar: 'running' }, want: 0 },
  { name: 'Never, main 137, sidecar with only WITH_IMAGE', containers: [main(), sidecar('sidecar', { plain: false })], states: { main: 137, sidecar: 'running' }, want: 1 },
  { name: 'Never, main 0', containers: one, states: { main: 0, sidecar: 'running' }, want: 1 },
  { name: 'OnFailure, main running', containers: one, states: { main: 'running', sidecar: 'running' }, opts: onFailure, want: 0 },
  { name: 'OnFailure, main 137', containers: one, states: { main: 137, sidecar: 'running' }, opts: onFailure, want: 0 },
  { name: 'OnFailure, main 0', containers: one, states: { main: 0, sidecar: 'running' }, opts: onFailure, want: 1 },
  { name: 'two mains 0, two sidecars', containers: two(), states: { 'main-1': 0, 'main-2': 0, 'sidecar-1': 'running', 'sidecar-2': 'running' }, want: 2 },
  { name: 'one sidecar already exited', containers: two(), states: { 'main-1': 0, 'main-2': 0, 'sidecar-1': 0, 'sidecar-2': 'running' }, want: 1 },
  { name: 'normal node', containers: one, states: { main: 0, sidecar: 'running' }, vk: false, want: 0 },
];

describe('planTermination on a virtual-kubelet node (TestInPlaceUpdateStrategy)', () => {
  for (const tc of inPlace) {
    it(`${tc.name}: ${tc.want}`, () => {
      const steps = planTermination(jobPod(tc.containers, tc.states, tc.opts), tc.vk ?? true);
      const swapped = steps.flatMap((s) => (s.type === 'in-place' ? s.containers : []));
      assert.equal(swapped.length, tc.want);
      if (tc.vk ?? true) assert.ok(!steps.some((s) => s.type === 'crr'), 'no CRR on a virtual-kubelet node');
    });
  }
});

describe('sidecarSets (utils_test.go)', () => {
  const containers = [main(), sidecar('normal-sidecar1'), sidecar('ignore-sidecar1', { ignore: true, image: null })];
  const pod = jobPod(containers, {});
  it('normal node: normal and ignore-exit-code sets, nothing in place', () => {
    const s = sidecarSets(pod, false);
    assert.deepEqual([[...s.normal], [...s.ignoreExitCode], [...s.inPlace]], [['normal-sidecar1'], ['ignore-sidecar1'], []]);
  });
  it('virtual-kubelet node: only the WITH_IMAGE sidecar, in place', () => {
    const vkPod = jobPod([main(), sidecar('vk-sidecar1'), sidecar('ignore-sidecar1', { ignore: true, image: null })], {});
    const s = sidecarSets(vkPod, true);
    assert.deepEqual([[...s.normal], [...s.ignoreExitCode], [...s.inPlace]], [[], [], ['vk-sidecar1']]);
  });
});

describe('isInterestingPod (the event handler vectors)', () => {
  const cases: { name: string; pod: ReturnType<typeof jobPod>; want: boolean }[] = [
    { name: 'Pending', pod: jobPod(one, { main: 0, sidecar: 'running' }, { phase: 'Pending' }), want: false },
    { name: 'Always', pod: jobPod(one, { main: 0, sidecar: 'running' }, { restartPolicy: 'Always' }), want: false },
    { name: 'main exited, sidecar not terminated', pod: jobPod(one, { main: 0, sidecar: 'running' }), want: true },
    { name: 'both exited, phase Succeeded', pod: jobPod(one, { main: 0, sidecar: 0 }, { phase: 'Succeeded' }), want: false },
    { name: 'sidecar exited 137, phase Running', pod: jobPod(one, { main: 0, sidecar: 137 }), want: false },
    { name: 'main not terminated', pod: jobPod(one, { main: 'running', sidecar: 'running' }), want: false },
    { name: 'a Succeeded pod with a running sidecar still qualifies', pod: jobPod(one, { main: 0, sidecar: 'running' }, { phase: 'Succeeded' }), want: true },
  ];
  for (const tc of cases) it(`${tc.name}: ${tc.want}`, () => assert.equal(isInterestingPod(tc.pod), tc.want));
});
