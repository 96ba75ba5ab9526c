import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../api/meta.js';
import { AdmissionDeniedError } from '../errors.js';
import { applyLaunchPriority, generateName } from './launch-priority.js';

const pod = (containers: Container[], meta: Pod['metadata'] = { name: 'fake' }): Pod => ({ metadata: meta, spec: { containers } });
const ctx = { random: () => 0 };
const barrier = (p: Pod) => p.spec!.containers.map((c) => c.env?.find((e) => e.name === 'KRUISE_CONTAINER_BARRIER')?.valueFrom?.configMapKeyRef);
const prio = (name: string, value?: string): Container => ({ name, image: name, ...(value === undefined ? {} : { env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value }] }) });

test('a pod without the annotation or priorities is left alone', () => {
  const p = pod([prio('a'), prio('b')]);
  assert.deepEqual(applyLaunchPriority(p, ctx), p);
});

test('Ordered gives priorities 0, -1, -2 by position with ConfigMap <pod>-barrier', () => {
  const p = pod([prio('a'), prio('b', '100'), prio('c')], { name: 'fake', annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } });
  assert.deepEqual(barrier(applyLaunchPriority(p, ctx)), [
    { name: 'fake-barrier', key: 'p_0' },
    { name: 'fake-barrier', key: 'p_-1' },
    { name: 'fake-barrier', key: 'p_-2' },
  ]);
});

test('the annotation value is case-sensitive', () => {
  const p = pod([prio('a'), prio('b')], { name: 'fake', annotations: { 'apps.kruise.io/container-launch-priority': 'ordered' } });
  assert.deepEqual(barrier(applyLaunchPriority(p, ctx)), [undefined, undefined]);
});

test('differing env priorities become barrier keys, absent ones count as 0 and signs/zeros normalise', () => {
  assert.deepEqual(barrier(applyLaunchPriority(pod([prio('a', '+007'), prio('b')]), ctx)).map((r) => r?.key), ['p_7', 'p_0']);
});

test('the last KRUISE_CONTAINER_PRIORITY occurrence wins', () => {
  const c: Container = { name: 'a', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '5' }, { name: 'KRUISE_CONTAINER_PRIORITY', value: '2' }] };
  assert.deepEqual(barrier(applyLaunchPriority(pod([c, prio('b')]), ctx)).map((r) => r?.key), ['p_2', 'p_0']);
});

test('equal non-zero priorities decide nothing', () => {
  const p = pod([prio('a', '3'), prio('b', '3')]);
  assert.deepEqual(applyLaunchPriority(p, ctx), p);
});

test('a single container pod is skipped even when Ordered', () => {
  const p = pod([prio('a')], { name: 'fake', annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } });
  assert.deepEqual(applyLaunchPriority(p, ctx), p);
});

test('a non-integer priority refuses the pod with a 400 naming the container', () => {
  assert.throws(
    () => applyLaunchPriority(pod([prio('a', 'high'), prio('b', '1')]), ctx),
    (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400 && /container a env KRUISE_CONTAINER_PRIORITY="high"/.test(e.message),
  );
});

test('a pod with only generateName gets its name fixed now, truncated to 58 characters plus 5', () => {
  const base = 'x'.repeat(70);
  const out = applyLaunchPriority(pod([prio('a', '1'), prio('b')], { generateName: base }), { random: () => 0.999 });
  assert.equal(out.metadata!.name, `${'x'.repeat(58)}99999`);
  assert.equal(barrier(out)[0]!.name, `${out.metadata!.name}-barrier`);
  assert.equal(generateName('web-', () => 0), 'web-bbbbb');
});

test('init containers never get a barrier and the input is not modified', () => {
  const p = pod([prio('a', '1'), prio('b')]);
  p.spec!.initContainers = [prio('i', '9')];
  const before = structuredClone(p);
  const out = applyLaunchPriority(p, ctx);
  assert.equal(out.spec!.initContainers![0]!.env!.length, 1);
  assert.deepEqual(p, before);
});
