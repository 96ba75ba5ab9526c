import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneJson } from './clone.js';

test('a JSON object is copied deeply and equals its structuredClone', () => {
  const pod = JSON.parse('{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"app","env":[{"name":"X","value":"1"}]}],"n":null,"t":true,"i":3}}');
  const copy = cloneJson(pod);
  assert.deepEqual(copy, structuredClone(pod));
  copy.spec.containers[0].env[0].value = '2';
  assert.equal(pod.spec.containers[0].env[0].value, '1');
});

test('an own "__proto__" key from JSON.parse stays a key and does not change the prototype', () => {
  const o = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
  const copy = cloneJson(o);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.deepEqual(Object.keys(copy), ['__proto__', 'x']);
  assert.equal((copy as Record<string, unknown>).polluted, undefined);
});

test('undefined members are kept and non-plain objects are deep-copied through structuredClone', () => {
  const d = new Date('2026-01-02T03:04:05Z');
  const copy = cloneJson({ u: undefined, d });
  assert.ok(Object.hasOwn(copy, 'u'));
  assert.ok(copy.d instanceof Date && copy.d !== d && copy.d.getTime() === d.getTime());
});
