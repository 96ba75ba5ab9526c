import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { coreV1ContainerSchema } from './corev1-go-schema.js';
import { goJson, GoJsonTypeError, goJsonValue, goNormalize, goString } from './go-json.js';
import { sidecarContainerSchema } from './sidecarset-hash.js';

const container = (value: unknown) => goJson(value, 'Container', coreV1ContainerSchema);

test('struct fields come out in Go declaration order whatever the input key order', () => {
  const a = { tty: true, image: 'img', name: 'n', args: ['x'], command: ['c'] };
  const b = { command: ['c'], name: 'n', args: ['x'], tty: true, image: 'img' };
  const expected = '{"name":"n","image":"img","command":["c"],"args":["x"],"resources":{},"tty":true}';
  assert.equal(container(a), expected);
  assert.equal(container(b), expected);
});

test('omitempty drops false, 0, "", empty lists and maps and null, but keeps the non-pointer resources struct', () => {
  const input = { name: '', image: '', stdin: false, ports: [], env: null, command: [], resources: { limits: {} }, terminationMessagePath: '' };
  assert.equal(container(input), '{"name":"","resources":{}}');
});

test('fields without omitempty are emitted as Go zero values when missing', () => {
  assert.equal(container({}), '{"name":"","resources":{}}');
  assert.equal(goJson({}, 'VolumeMount', coreV1ContainerSchema), '{"name":"","mountPath":""}');
  assert.equal(goJson({ port: 1 }, 'GRPCAction', coreV1ContainerSchema), '{"port":1,"service":null}');
});

test('pointer fields keep false and empty objects, because only a nil pointer is empty', () => {
  const out = container({ name: 'n', securityContext: { privileged: false, runAsUser: 0, capabilities: {} } });
  assert.equal(out, '{"name":"n","resources":{},"securityContext":{"capabilities":{},"privileged":false,"runAsUser":0}}');
});

test('fields unknown to the Go struct are dropped at every depth', () => {
  const out = container({ name: 'n', fancy: 1, ports: [{ containerPort: 80, extra: true }] });
  assert.equal(out, '{"name":"n","ports":[{"containerPort":80}],"resources":{}}');
});

test('null and [] differ for slices outside omitempty', () => {
  assert.equal(goJson(null, '[]Container', coreV1ContainerSchema), 'null');
  assert.equal(goJson(undefined, '[]Container', coreV1ContainerSchema), 'null');
  assert.equal(goJson([], '[]Container', coreV1ContainerSchema), '[]');
});

test('map keys are sorted bytewise and resource quantities canonicalised', () => {
  const out = container({ name: 'n', resources: { requests: { memory: '1024Mi', cpu: '1000m' }, limits: { 'é': '0.5', z: 2 } } });
  assert.equal(out, '{"name":"n","resources":{"limits":{"z":"2","é":"500m"},"requests":{"cpu":"1","memory":"1Gi"}}}');
});

test('IntOrString is emitted as the number or string it was given', () => {
  assert.equal(goJson({ port: 8080 }, 'TCPSocketAction', coreV1ContainerSchema), '{"port":8080}');
  assert.equal(goJson({ port: 'http' }, 'TCPSocketAction', coreV1ContainerSchema), '{"port":"http"}');
});

const escapes = [
  { name: 'HTML characters become \\u escapes', input: '<a href="x">&</a>', go: '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"' },
  { name: 'U+2028 and U+2029 are escaped', input: 'a\u2028b\u2029c', go: '"a\\u2028b\\u2029c"' },
  { name: 'control characters use Go 1.22 short forms where they exist', input: '\n\r\t\b\f\u0001\u001f', go: '"\\n\\r\\t\\b\\f\\u0001\\u001f"' },
  { name: 'DEL and non-ASCII text pass through unescaped', input: '\u007fé😀', go: '"\u007fé😀"' },
  { name: 'a lone surrogate becomes U+FFFD, as Go decoding has already replaced it', input: 'a\ud800b', go: '"a\ufffdb"' },
];
for (const tc of escapes) test(`goString: ${tc.name}`, () => assert.equal(goString(tc.input), tc.go));

const typeErrors = [
  { name: 'a number where Go expects a string', input: { name: 1 } },
  { name: 'a string where Go expects an int32', input: { name: 'n', ports: [{ containerPort: '80' }] } },
  { name: 'an int beyond int32', input: { name: 'n', ports: [{ containerPort: 1e10 }] } },
  { name: 'a fraction for IntOrString', input: { name: 'n', livenessProbe: { httpGet: { port: 1.5 } } } },
  { name: 'an object where Go expects a list', input: { name: 'n', env: {} } },
  { name: 'a string for a bool', input: { name: 'n', stdin: 'true' } },
];
for (const tc of typeErrors) {
  test(`rejects what Go's decoder rejects: ${tc.name}`, () => assert.throws(() => container(tc.input), GoJsonTypeError));
}

test('goNormalize returns the plain value of the Go round trip', () => {
  assert.deepEqual(goNormalize({ name: 'n', stdin: false, x: 1 }, 'Container', coreV1ContainerSchema), { name: 'n', resources: {} });
});

// Produced once by a throwaway Go program (json.Unmarshal into a SidecarContainer mirroring kruise v1.8.4 over
// k8s.io/api v0.30.10, then json.Marshal); 5 hand-written cases and 20 random ones generated from the schema.
const golden = JSON.parse(readFileSync(new URL('./testdata/go-json-containers.golden.json', import.meta.url), 'utf8')) as {
  cases: { name: string; input: unknown; go: string }[];
};
for (const tc of golden.cases) {
  test(`matches Go byte for byte: ${tc.name}`, () => assert.equal(goJson(tc.input, 'SidecarContainer', sidecarContainerSchema), tc.go));
}

test('goJsonValue marshals a decoded interface{}: keys sorted at every level, Go escaping, null for nil', () => {
  assert.equal(goJsonValue({ b: [1, 2.5, true, null], a: { z: 'x<y', '$p': 'r' }, u: undefined }), '{"a":{"$p":"r","z":"x\\u003cy"},"b":[1,2.5,true,null]}');
  assert.equal(goJsonValue(null), 'null');
});
