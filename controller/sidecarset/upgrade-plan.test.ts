import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSetUpdateStrategy } from '../../shared/api/sidecarset.js';
import { kubelet, makePod, makeSet, NOW, withImage } from './fixtures.js';
import { upgradePod } from './pod-upgrade.js';
import { planUpgrade } from './upgrade-plan.js';

const v1 = makeSet();
type State = 'ready' | 'notReady' | 'updating' | 'updated' | 'immutable';

/** Pods p0..pn in the given states against v2 = v1 with busybox:2.0 and `strategy`. */
function scenario(strategy: SidecarSetUpdateStrategy, states: State[], labels: (i: number) => Record<string, string> = () => ({})) {
  const v2 = withImage({ ...v1, spec: { ...v1.spec, updateStrategy: strategy } }, 'busybox:2.0');
  const changedCommand = makeSet({ containers: [{ name: 'sidecar', image: 'busybox:1.0', command: ['other'] }] });
  const pods = states.map((s, i): Pod => {
    const name = `p${i}`;
    if (s === 'immutable') return kubelet(makePod(name, [changedCommand], labels(i)));
    const pod = kubelet(makePod(name, [v1], labels(i)), { ready: s !== 'notReady' });
    if (s === 'updating' || s === 'updated') {
      upgradePod(v2, pod, { now: NOW, injectedList: () => 'scs' });
      return s === 'updated' ? kubelet(pod) : pod;
    }
    return pod;
  });
  return { v2, pods };
}
const names = (pods: Pod[]) => pods.map((p) => p.metadata?.name);

const cases: { name: string; strategy: SidecarSetUpdateStrategy; states: State[]; labels?: (i: number) => Record<string, string>; upgrade: string[]; notUpgradable?: string[] }[] = [
  { name: 'maxUnavailable 1: one pod at a time', strategy: {}, states: ['ready', 'ready', 'ready'], upgrade: ['p0'] },
  { name: 'maxUnavailable 2', strategy: { maxUnavailable: 2 }, states: ['ready', 'ready', 'ready'], upgrade: ['p0', 'p1'] },
  { name: 'maxUnavailable 40% of 5 rounds up to 2', strategy: { maxUnavailable: '40%' }, states: ['ready', 'ready', 'ready', 'ready', 'ready'], upgrade: ['p0', 'p1'] },
  { name: 'an updated pod kubelet has not restarted yet uses the budget', strategy: {}, states: ['updating', 'ready', 'ready'], upgrade: [] },
  { name: 'an updated, consistent, ready pod does not', strategy: {}, states: ['updated', 'ready', 'ready'], upgrade: ['p1'] },
  { name: 'not-ready pods are taken without using the budget, and come first', strategy: {}, states: ['ready', 'notReady', 'ready', 'notReady'], upgrade: ['p1', 'p3', 'p0'] },
  { name: 'partition 2 keeps the last two waiting pods', strategy: { maxUnavailable: 10, partition: 2 }, states: ['ready', 'ready', 'ready', 'ready'], upgrade: ['p0', 'p1'] },
  { name: 'partition counts against waiting pods, not all pods', strategy: { maxUnavailable: 10, partition: 2 }, states: ['updated', 'updated', 'ready', 'ready'], upgrade: [] },
  { name: 'partition 50% of 3 rounds up to 2', strategy: { maxUnavailable: 10, partition: '50%' }, states: ['ready', 'ready', 'ready'], upgrade: ['p0'] },
  {
    name: 'canary: only pods matching updateStrategy.selector',
    strategy: { maxUnavailable: 10, selector: { matchLabels: { canary: 'true' } } },
    states: ['ready', 'ready', 'ready'], labels: (i): Record<string, string> => (i === 1 ? { canary: 'true' } : {}), upgrade: ['p1'],
  },
  { name: 'pods injected with other non-image fields are not upgradable', strategy: { maxUnavailable: 10 }, states: ['immutable', 'ready'], upgrade: ['p1'], notUpgradable: ['p0'] },
  {
    name: 'priority: weight terms go first',
    strategy: { maxUnavailable: 1, priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { first: 'yes' } } }] } },
    states: ['ready', 'ready', 'ready'], labels: (i): Record<string, string> => (i === 0 ? { first: 'yes' } : {}), upgrade: ['p0'],
  },
];

for (const tc of cases) {
  test(tc.name, () => {
    const { v2, pods } = scenario(tc.strategy, tc.states, tc.labels);
    const plan = planUpgrade(v2, pods);
    assert.deepEqual(names(plan.upgrade), tc.upgrade);
    assert.deepEqual(names(plan.notUpgradable), tc.notUpgradable ?? []);
  });
}

test('identical pods keep their list order: the ActivePods order is a stable sort', () => {
  const { v2, pods } = scenario({ maxUnavailable: 10 }, ['ready', 'ready', 'ready']);
  assert.deepEqual(names(planUpgrade(v2, pods).upgrade), ['p0', 'p1', 'p2']);
});
