// TestCanResizeInplace and TestIsNeedPubProtection (spec/availability-guards.md §3.4), and the "unavailable change".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/meta.js';
import type { PodUnavailableBudget } from '../../api/pod-unavailable-budget.js';
import { canResizeInPlace, isPubProtected, isUnavailableChange } from './operations.js';

type Res = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (resources: Res, o: { annotations?: Record<string, string>; labels?: Record<string, string>; resizePolicy?: { resourceName: string; restartPolicy: string }[] } = {}): Pod => ({
  metadata: { name: 'p', ...(o.annotations ? { annotations: o.annotations } : {}), ...(o.labels ? { labels: o.labels } : {}) },
  spec: { containers: [{ name: 'nginx', image: 'nginx', resources, ...(o.resizePolicy ? { resizePolicy: o.resizePolicy } : {}) }] },
});
const base: Res = { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '2', memory: '4Gi' } };
const bumped: Res = { requests: { cpu: '3', memory: '3Gi' }, limits: { cpu: '2', memory: '4Gi' } };

describe('canResizeInPlace (TestCanResizeInplace)', () => {
  const cases: [string, Pod, Pod, boolean][] = [
    ['BestEffort → Guaranteed changes the QoS', pod({}), pod({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), false],
    ['requests change under unchanged limits', pod(base), pod(bumped), true],
    ['limits gain storage', pod(base), pod({ ...base, limits: { ...base.limits, storage: '1Gi' } }), false],
    ['requests lose storage', pod({ ...base, requests: { ...base.requests, storage: '1Gi' } }), pod(base), false],
    ['a static pod', pod(base), pod(bumped, { annotations: { 'kubernetes.io/config.source': 'file' } }), false],
    ['cpu needs a restart', pod(base, { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }),
      pod({ ...base, requests: { cpu: '2', memory: '2Gi' } }, { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }), false],
    ['only memory changes, memory NotRequired', pod(base, { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }, { resourceName: 'memory', restartPolicy: 'NotRequired' }] }),
      pod({ requests: { cpu: '1', memory: '3Gi' }, limits: { cpu: '2', memory: '5Gi' } }, { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }, { resourceName: 'memory', restartPolicy: 'NotRequired' }] }), true],
    ['an unavailable label gained', pod(base), pod(bumped, { labels: { 'unavailable-pod.kruise.io/data': 'true' } }), false],
    ['an image change is not a resize', pod(base), { ...pod(base), spec: { containers: [{ name: 'nginx', image: 'nginx:2', resources: base }] } }, false],
  ];
  for (const [name, a, b, want] of cases) it(name, () => assert.equal(canResizeInPlace(a, b), want));
});

describe('isPubProtected (TestIsNeedPubProtection)', () => {
  const pub = (ops?: string): PodUnavailableBudget => ({ metadata: { name: 'p', ...(ops !== undefined ? { annotations: { 'kruise.io/pub-protect-operations': ops } } : {}) } });
  const cases: [string | undefined, boolean, 'UPDATE' | 'DELETE' | 'EVICT' | 'RESIZE', boolean][] = [
    [undefined, false, 'UPDATE', true], [undefined, false, 'DELETE', true], [undefined, false, 'EVICT', true],
    [undefined, true, 'RESIZE', false], [undefined, false, 'RESIZE', true], ['RESIZE', false, 'RESIZE', true],
    ['RESIZE,UPDATE', false, 'UPDATE', true], ['RESIZE,DELETE', false, 'UPDATE', false], ['EVICT,DELETE', false, 'UPDATE', false],
    ['EVICT,UPDATE', false, 'RESIZE', true], ['EVICT,UPDATE', true, 'RESIZE', false], ['EVICT', true, 'RESIZE', false], ['EVICT', false, 'RESIZE', false],
    ['', false, 'DELETE', true],
  ];
  for (const [ops, gate, op, want] of cases) it(`${ops ?? 'absent'} gate=${gate} ${op} → ${want}`, () => assert.equal(isPubProtected(pub(ops), op, gate), want));
});

describe('isUnavailableChange', () => {
  it('labels and annotations only: no', () => assert.equal(isUnavailableChange(pod(base), pod(base, { labels: { a: 'b' }, annotations: { x: 'y' } })), false));
  it('a spec change: yes', () => assert.equal(isUnavailableChange(pod(base), pod(bumped)), true));
  it('an unavailable label gained: yes', () => assert.equal(isUnavailableChange(pod(base), pod(base, { labels: { 'unavailable-pod.kruise.io/x': '1' } })), true));
});
