// Every row of the review's "CLI bad-input results" table (reliability-security-2026-12.md, M7, L4): exit code,
// what reaches stdout and stderr, and never a stack trace. Through runCli with injected streams, as cli.test.ts
// does, plus the real entrypoint (bin/kruise-ts.js) where the bytes of standard input matter.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { runCli, type Io } from './main.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function cli(args: string[], stdin: string | Uint8Array = '', extra: Partial<Io> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: () => stdin, ...extra });
  return { code, stdout, stderr };
}

/** A stack trace's frames ("    at f (file:1:2)"), which no bad input may print. */
const stackFrame = /^\s+at .+[(:]/m;

const pod = (extra = '') => `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: x}]\n${extra}`;

/** A "billion laughs": `levels` anchors, each a list of `width` aliases of the one before. */
const laughs = (levels: number, width: number, indent: string) => {
  let s = `${indent}l0: &l0 [lol]\n`;
  for (let i = 1; i < levels; i++) s += `${indent}l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(',')}]\n`;
  return s;
};
// The review's two bombs: 9 × 10 levels in a field nothing reads (it ran for minutes, 1 GB), and 9 × 8 levels in the
// pod spec (143 MB of JSON).
const unusedFieldBomb = `${pod()}unused:\n${laughs(10, 9, '  ')}`;
const specBomb = `${pod()}  x:\n${laughs(8, 9, '    ')}`;

const nested = (depth: number, open: string, close: string, leaf = '1') => open.repeat(depth) + leaf + close.repeat(depth);
const blockNested = (depth: number) => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1\n';

interface Row {
  name: string;
  args: string[];
  stdin: string | Uint8Array;
  code: number;
  stdout?: RegExp | string;
  stderr?: RegExp | string;
}

const bothCommands = (row: Omit<Row, 'args'> & { inject?: Partial<Row>; validate?: Partial<Row> }): Row[] => [
  { ...row, args: ['inject', '-o', 'json', '-f', '-'], name: `inject: ${row.name}`, ...row.inject },
  { ...row, args: ['validate', '-f', '-'], name: `validate: ${row.name}`, ...row.validate },
];

const rows: Row[] = [
  ...bothCommands({ name: 'malformed YAML is one line naming the position', stdin: 'kind: Pod\n a: b\n', code: 1, stdout: '', stderr: /^-: not valid YAML or JSON: bad indentation .*\(2:3\)\n$/ }),
  ...bothCommands({
    name: 'an empty input', stdin: '', code: 1, stdout: '', stderr: 'no documents in the input\n',
    inject: { code: 0, stderr: 'warning: no documents in the input\n' },
  }),
  ...bothCommands({
    name: 'only document separators', stdin: '---\n---\n', code: 1, stdout: '', stderr: 'no documents in the input\n',
    inject: { code: 0, stderr: 'warning: no documents in the input\n' },
  }),
  ...bothCommands({
    name: 'an unknown kind passes (inject prints it unchanged)', stdin: 'apiVersion: x/v1\nkind: Frobnicator\nmetadata: {name: f}\n', code: 0, stderr: '',
    inject: { stdout: `${JSON.stringify({ apiVersion: 'x/v1', kind: 'Frobnicator', metadata: { name: 'f' } }, null, 2)}\n` },
    validate: { stdout: 'allowed Frobnicator/f\n' },
  }),
  {
    name: 'validate: wrong types name the field', args: ['validate', '-f', '-'], code: 1, stderr: '',
    stdin: 'apiVersion: apps.kruise.io/v1alpha1\nkind: ImagePullJob\nmetadata: {name: j, namespace: d}\nspec:\n  image: nginx\n  pullPolicy: {timeoutSeconds: "x"}\n',
    stdout: /^denied ImagePullJob\/j: .*spec\.pullPolicy\.timeoutSeconds: must be a number \(got string\)\n$/,
  },
  ...bothCommands({ name: 'a duplicate key is refused, as kubectl refuses it', stdin: pod('metadata: {name: second}\n'), code: 1, stdout: '', stderr: /^-: not valid YAML or JSON: duplicated mapping key \(6:1\)\n$/ }),
  ...bothCommands({ name: '100k-deep JSON', stdin: `{"apiVersion":"v1","kind":"Pod","x":${nested(100_000, '{"a":', '}')}}`, code: 1, stdout: '', stderr: /^-: nesting too deep to parse/ }),
  ...bothCommands({ name: '5k-deep flow YAML', stdin: `${pod()}x: ${nested(5000, '[', ']')}\n`, code: 1, stdout: '', stderr: /^-: nesting too deep to parse/ }),
  ...bothCommands({ name: '2k-deep block YAML', stdin: `${pod()}${blockNested(2000)}`, code: 1, stdout: '', stderr: /^-: nesting too deep to parse/ }),
  ...bothCommands({ name: '1.6k-deep flow YAML that parses', stdin: `${pod()}x: ${nested(1600, '[', ']')}\n`, code: 1, stdout: '', stderr: '-: document 1: x[0][0][0][0][0][0][0]…[0][0][0][0][0][0][0][0] (1500 levels down): nesting too deep (more than 1500 levels)\n' }),
  ...bothCommands({
    name: 'many values deep down (indented output would be nesting × size) are refused',
    stdin: `${pod()}x: ${nested(1400, '[', ']', Array(20_000).fill('1').join(','))}\n`, code: 1, stdout: '',
    stderr: /^-: document 1: x\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]…\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[\d+\] \(1401 levels down\): would print to more than 16000000 characters \(the limit is 8 times the input, at least 16 MB\)\n$/,
  }),
  ...bothCommands({
    name: 'a 100-deep value inside a container is handled', code: 0, stderr: '',
    stdin: `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: x, deep: ${nested(100, '{a: ', '}')}}]\n`,
    validate: { stdout: 'allowed Pod/p\n' }, inject: { stdout: /"kind": "Pod"/ },
  }),
  // The webhook refuses objects nested past 128 levels (webhook/admission/decode-object.ts); the CLI answers the same.
  ...bothCommands({
    name: 'a 1k-deep value inside a container is refused, as the webhook refuses it', code: 1,
    stdin: `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: x, deep: ${nested(1000, '{a: ', '}')}}]\n`,
    validate: { stdout: /^denied Pod\/p: request\.object is nested more than 128 levels deep \(at spec\.containers\[0\]\.deep/, stderr: '' },
    inject: { stdout: '', stderr: /would be refused: request\.object is nested more than 128 levels deep/ },
  }),
  ...bothCommands({
    name: 'a 10k-entry env', code: 0, stderr: '',
    stdin: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x', env: Array.from({ length: 10_000 }, (_, i) => ({ name: `E${i}`, value: 'v'.repeat(20) })) }] } }),
    validate: { stdout: 'allowed Pod/p\n' }, inject: { stdout: /"E9999"/ },
  }),
  ...bothCommands({
    name: 'a 5 MB ConfigMap (no alias, so no budget applies)', code: 0, stderr: '',
    stdin: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {k: ${'x'.repeat(5_000_000)}}\n`,
    validate: { stdout: 'allowed ConfigMap/big\n' }, inject: { stdout: /"kind": "ConfigMap"/ },
  }),
  ...bothCommands({ name: 'non-UTF-8 bytes', stdin: Buffer.concat([Buffer.from(pod('x: caf')), Buffer.from([0xe9, 0x0a])]), code: 1, stdout: '', stderr: /^-: not UTF-8 text/ }),
  ...bothCommands({ name: 'UTF-16 with a byte-order mark', stdin: Buffer.from(`\ufeff${pod()}`, 'utf16le'), code: 1, stdout: '', stderr: /^-: not UTF-8 text/ }),
  ...bothCommands({ name: 'UTF-8 with a byte-order mark is read', stdin: Buffer.from(`\ufeff${pod()}`), code: 0, stderr: '', validate: { stdout: 'allowed Pod/p\n' }, inject: { stdout: /"name": "p"/ } }),
  ...bothCommands({ name: `the review's 9 × 10-level alias bomb in an unused field (${unusedFieldBomb.length} bytes)`, stdin: unusedFieldBomb, code: 1, stdout: '', stderr: /^-: line \d+: YAML aliases expand to more than 1000000 characters/ }),
  ...bothCommands({ name: `the review's 9 × 8-level alias bomb in the spec (${specBomb.length} bytes)`, stdin: specBomb, code: 1, stdout: '', stderr: /^-: line \d+: YAML aliases expand to more than 1000000 characters/ }),
  ...bothCommands({ name: 'a List with null, number and string items names the item', stdin: '{"kind":"List","items":[null,1,"x"]}', code: 1, stdout: '', stderr: /^-: document 1, item 1: not a Kubernetes object \(got null;/ }),
  ...bothCommands({ name: 'a List item with a numeric kind names the item', stdin: `{"apiVersion":"v1","kind":"List","items":[${JSON.stringify({ apiVersion: 'v1', kind: 'Pod' })},{"apiVersion":"v1","kind":7}]}`, code: 1, stdout: '', stderr: '-: document 1, item 2: kind must be a non-empty string (got number 7)\n' }),
  ...bothCommands({ name: 'a List whose items are not a list', stdin: '{"apiVersion":"v1","kind":"List","items":"x"}', code: 1, stdout: '', stderr: '-: document 1: List items must be a list\n' }),
  ...bothCommands({ name: 'a numeric apiVersion names the document', stdin: `${pod()}---\napiVersion: 1\nkind: Pod\n`, code: 1, stdout: '', stderr: '-: document 2: apiVersion must be a non-empty string (got number 1)\n' }),
  ...bothCommands({ name: 'a missing kind', stdin: 'apiVersion: v1\nmetadata: {name: p}\n', code: 1, stdout: '', stderr: '-: document 1: kind is missing\n' }),
  ...bothCommands({ name: 'a scalar document', stdin: `${pod()}---\n42\n`, code: 1, stdout: '', stderr: /^-: document 2: not a Kubernetes object \(got number 42;/ }),
  ...bothCommands({ name: 'a non-string metadata.name', stdin: 'apiVersion: v1\nkind: Pod\nmetadata: {name: [a]}\n', code: 1, stdout: '', stderr: '-: document 1: metadata.name must be a string (got a list)\n' }),
  ...bothCommands({ name: 'an unquoted timestamp annotation stays a string, as kubectl reads it', stdin: pod().replace('{name: p}', '{name: p, annotations: {at: 2024-01-02}}'), code: 0, stderr: '', validate: { stdout: 'allowed Pod/p\n' }, inject: { stdout: /"at": "2024-01-02"/ } }),
  ...bothCommands({
    name: 'a YAML 1.1 octal mode (0644) is 420, as kubectl reads it', code: 0, stderr: '',
    stdin: pod('  volumes: [{name: v, secret: {secretName: s, defaultMode: 0644}}]\n'),
    validate: { stdout: 'allowed Pod/p\n' }, inject: { stdout: /"defaultMode": 420\b/ },
  }),
  ...bothCommands({ name: '!!binary is refused, saying why', stdin: pod().replace('{name: p}', '{name: !!binary aGVsbG8=}'), code: 1, stdout: '', stderr: /^-: not valid YAML or JSON: unknown tag !<tag:yaml\.org,2002:binary> \(3:35\): !!binary is not supported; give the value as a \(base64\) string\n$/ }),
  ...bothCommands({ name: 'a __proto__ key is refused, as the webhook refuses it', stdin: pod('  __proto__: {x: 1}\n').replace('spec:\n  containers: [{name: a, image: x}]\n', 'spec:\n  containers: [{name: a, image: x}]\n'), code: 1, stdout: '', stderr: '-: document 1: spec.__proto__: a "__proto__" key is not allowed\n' }),
  ...bothCommands({ name: 'a constructor.prototype key is refused', stdin: pod('  constructor: {prototype: {x: 1}}\n'), code: 1, stdout: '', stderr: '-: document 1: spec.constructor: a "constructor" mapping with a "prototype" key is not allowed\n' }),
  ...bothCommands({ name: 'an anchor that contains its own alias', stdin: pod('x: &a [1, *a]\n'), code: 1, stdout: '', stderr: '-: document 1: x[1]: a YAML alias refers to a node that contains it\n' }),
  ...bothCommands({
    name: 'a chain of merge keys (quadratic in js-yaml) is stopped by the alias budget',
    stdin: `${pod()}m:\n  a0: &a0 {k0: 1}\n${Array.from({ length: 8000 }, (_, i) => `  a${i + 1}: &a${i + 1} {<<: *a${i}, k${i + 1}: 1}\n`).join('')}`,
    code: 1, stdout: '', stderr: /^-: line \d+: YAML aliases expand to more than 2\d{6} characters \(the limit is 8 times the input, at least 1 MB\)\n$/,
  }),
  { name: 'a missing file', args: ['validate', '-f', '/nonexistent/x.yaml'], stdin: '', code: 1, stdout: '', stderr: 'cannot read /nonexistent/x.yaml: ENOENT\n' },
  { name: 'a directory', args: ['inject', '-f', root], stdin: '', code: 1, stdout: '', stderr: `cannot read ${root}: EISDIR\n` },
];

for (const row of rows) {
  test(`bad input, ${row.name}: exit ${row.code}`, async () => {
    const r = await cli(row.args, row.stdin);
    assert.equal(r.code, row.code, r.stderr);
    for (const [stream, want] of [['stdout', row.stdout], ['stderr', row.stderr]] as const) {
      if (typeof want === 'string') assert.equal(r[stream], want, stream);
      else if (want) assert.match(r[stream], want, stream);
    }
    assert.doesNotMatch(r.stderr, stackFrame);
    if (row.code !== 0) assert.equal(r.stderr.trimEnd().split('\n').length, 1, `one line: ${r.stderr}`);
  });
}

test('anchors within the budget expand into independent copies, as kubectl expands them', async () => {
  const input = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n' +
    '      containers:\n      - {name: a, image: x, resources: &r {limits: {cpu: "1"}}}\n      - {name: b, image: y, resources: *r}\n';
  const r = await cli(['inject', '-f', '-'], input);
  assert.equal(r.code, 0, r.stderr);
  const d = yaml.load(r.stdout) as any;
  const [a, b] = d.spec.template.spec.containers;
  assert.deepEqual(a.resources, { limits: { cpu: '1' } });
  assert.deepEqual(b.resources, a.resources);
  assert.doesNotMatch(r.stdout, /[&*]r\b/, 'printed without anchors');
});

test('an unexpected error is one line "kruise-ts: internal error", exit 2; its stack only when debugging', async () => {
  const failing = { stdout: () => { throw new Error('write EPIPE\nsecond line'); } };
  const r = await cli(['validate', '-f', '-'], pod(), failing);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'kruise-ts: internal error: write EPIPE\n');
  const debug = await cli(['validate', '-f', '-'], pod(), { ...failing, debug: true });
  assert.equal(debug.code, 2);
  assert.match(debug.stderr, /^kruise-ts: internal error: write EPIPE\nError: write EPIPE\nsecond line\n\s+at /);
});

// The entrypoint reads standard input as bytes (so non-UTF-8 is seen) and sets debug from KRUISE_TS_DEBUG.
test('the kruise-ts entrypoint refuses non-UTF-8 standard input and an alias bomb file, one line each, exit 1', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kruise-ts-cli-'));
  try {
    const bomb = path.join(dir, 'bomb.yaml');
    writeFileSync(bomb, unusedFieldBomb);
    const run = (args: string[], input: Buffer | string) =>
      spawnSync(process.execPath, [path.join(root, 'bin/kruise-ts.js'), ...args], { input, encoding: 'utf8', timeout: 120_000 });
    const latin1 = run(['validate', '-f', '-'], Buffer.concat([Buffer.from(pod('x: caf')), Buffer.from([0xe9, 0x0a])]));
    assert.equal(latin1.status, 1, latin1.stderr);
    assert.equal(latin1.stderr, '-: not UTF-8 text (Kubernetes manifests are UTF-8; convert it, e.g. with iconv)\n');
    const bombed = run(['inject', '-o', 'json', '-f', bomb], '');
    assert.equal(bombed.status, 1, bombed.stderr);
    assert.equal(bombed.stdout, '');
    assert.match(bombed.stderr, new RegExp(`^${bomb.replace(/[.\\/]/g, '\\$&')}: line 12: YAML aliases expand to more than 1000000 characters`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
