import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpdateExpectations } from './expectations.js';

test('an updated pod is awaited until the cache shows it with the new hash', () => {
  const e = new UpdateExpectations();
  e.expectUpdated('s', 'h2', 'ns/a');
  e.observe('s', 'h2', 'ns/a', 'h1');
  assert.deepEqual(e.unsatisfied('s', 'h2'), ['ns/a']);
  e.observe('s', 'h2', 'ns/a', 'h2');
  assert.deepEqual(e.unsatisfied('s', 'h2'), []);
});

test('a new SidecarSet revision drops what was awaited for the old one', () => {
  const e = new UpdateExpectations();
  e.expectUpdated('s', 'h2', 'ns/a');
  assert.deepEqual(e.unsatisfied('s', 'h3'), []);
  e.observe('s', 'h3', 'ns/b', 'h3');
  assert.deepEqual(e.pending('s'), []);
});

test('a deleted pod is no longer awaited; SidecarSets are independent', () => {
  const e = new UpdateExpectations();
  e.expectUpdated('s', 'h', 'ns/a');
  e.expectUpdated('t', 'h', 'ns/a');
  e.forget('s', 'ns/a');
  assert.deepEqual(e.unsatisfied('s', 'h'), []);
  assert.deepEqual(e.unsatisfied('t', 'h'), ['ns/a']);
  e.deleteSet('t');
  assert.deepEqual(e.unsatisfied('t', 'h'), []);
});
