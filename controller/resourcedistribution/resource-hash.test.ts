import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resourceHash, unstructuredJson } from './resource-hash.js';

// Expected strings and the hash were produced by Go 1.26 encoding/json (json.NewEncoder over an interface{} decoded
// from the same input), which is what kube-apiserver runs for unstructured objects.
const input = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"game-demo","labels":{"b":"2","a":"1"}},' +
  '"data":{"z":"<tag> & \\u2028 ünï 😀","a\\n":"x\\ty\\u0001","é":"1","e":"2"},"n":[1,2.5,1e21,1.5e-7,-3,0.000001,123456789012]}';
const goOutput = '{"apiVersion":"v1","data":{"a\\n":"x\\ty\\u0001","e":"2","z":"\\u003ctag\\u003e \\u0026 \\u2028 ünï 😀","é":"1"},' +
  '"kind":"ConfigMap","metadata":{"labels":{"a":"1","b":"2"},"name":"game-demo"},"n":[1,2.5,1e+21,1.5e-7,-3,0.000001,123456789012]}';

const cases: { name: string; value: unknown; want: string }[] = [
  { name: 'keys sorted by bytes, HTML and control characters escaped, numbers as Go prints them', value: JSON.parse(input), want: goOutput },
  { name: 'null and empty containers', value: { a: null, b: [], c: {} }, want: '{"a":null,"b":[],"c":{}}' },
  { name: 'undefined members are absent, as JSON.parse never produces them', value: { a: undefined, b: true }, want: '{"b":true}' },
  { name: 'booleans and nested arrays', value: [[false], [true, 'x']], want: '[[false],[true,"x"]]' },
];

for (const tc of cases) test(`unstructuredJson: ${tc.name}`, () => assert.equal(unstructuredJson(tc.value), tc.want));

test('resourceHash is the SHA-256 Go computes over the apiserver bytes', () => {
  assert.equal(resourceHash(JSON.parse(input)), '42f228e584fe3e312b610d5a7cec9ca6f0b0125503e90ca5f806a7c8307b331d');
});

test('unstructuredJson refuses values JSON cannot carry', () => {
  assert.throws(() => unstructuredJson(Number.NaN), /no JSON form/);
  assert.throws(() => unstructuredJson({ f: () => 1 }), /cannot encode a function/);
});
