import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PodIndex } from './pod-index.js';

test('pods are found under every SidecarSet they name, and move when the list changes', () => {
  const i = new PodIndex();
  i.set('ns/a', ['s', 't']);
  i.set('ns/b', ['s']);
  assert.deepEqual([...i.podsOf('s')], ['ns/a', 'ns/b']);
  assert.deepEqual(i.set('ns/a', ['t']), ['s', 't'], 'returns what the pod named before');
  assert.deepEqual([...i.podsOf('s')], ['ns/b']);
  assert.deepEqual(i.delete('ns/b'), ['s']);
  assert.deepEqual([...i.podsOf('s')], []);
  assert.deepEqual([...i.podsOf('t')], ['ns/a']);
});
