import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../testing/random.js';
import { compileGoRegexp } from './go-regexp.js';

const matching: { pattern: string; yes: string[]; no: string[] }[] = [
  { pattern: '.*', yes: ['', 'app', 'a-b'], no: [] },
  { pattern: 'app', yes: ['app', 'myapp-2'], no: ['ap-p'] },
  { pattern: '^large.engine.v.*$', yes: ['large.engine.v4', 'large-engine-v8'], no: ['xlarge.engine.v4', 'large.engine'] },
  { pattern: '^large.engine.v4$', yes: ['large.engine.v4'], no: ['large.engine.v8'] },
  { pattern: '^app.*$', yes: ['app1', 'app2'], no: ['sidecar'] },
  { pattern: '(?i)^APP$', yes: ['app', 'App'], no: ['apps'] },
  { pattern: '^(?P<kind>web|api)-[0-9]+$', yes: ['web-1', 'api-22'], no: ['db-1'] },
  { pattern: '^\\d+\\w*$', yes: ['1', '12ab_'], no: ['a1'] },
  { pattern: '^[[:alpha:]-]+$', yes: ['app-x'], no: ['app1'] },
  { pattern: '^[\\D]+$', yes: ['abc'], no: ['a1'] },
  { pattern: 'x{,3}', yes: ['x{,3}'], no: ['xxx'] },
  { pattern: '^a{2,3}$', yes: ['aa', 'aaa'], no: ['a', 'aaaa'] },
  { pattern: '^\\Qa.b\\E$', yes: ['a.b'], no: ['axb'] },
  { pattern: '\\s', yes: ['a b'], no: ['a\u00a0b'] },
  { pattern: '^a(?s:.)b$', yes: ['a\nb'], no: [] },
  { pattern: '^a.b$', yes: ['axb'], no: ['a\nb'] },
  { pattern: '(?)app', yes: ['app'], no: [] },
];

for (const tc of matching) {
  test(`go regexp: ${tc.pattern} matches as Go's MatchString`, () => {
    const r = compileGoRegexp(tc.pattern);
    assert.ok(r.ok, r.ok ? '' : r.error);
    for (const s of tc.yes) assert.equal(r.regexp.test(s), true, `${tc.pattern} should match ${JSON.stringify(s)}`);
    for (const s of tc.no) assert.equal(r.regexp.test(s), false, `${tc.pattern} should not match ${JSON.stringify(s)}`);
  });
}

// Go's regexp.Compile error texts (regexp/syntax Error: "error parsing regexp: <code>: `<expr>`").
const refused: { pattern: string; error: string }[] = [
  { pattern: '[invalid(regex', error: 'error parsing regexp: missing closing ]: `[invalid(regex`' },
  { pattern: '(?=x)', error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`' },
  { pattern: '(?!x)', error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`' },
  { pattern: '(?<=x)y', error: 'error parsing regexp: invalid named capture: `(?<=x)y`' },
  { pattern: 'a**', error: 'error parsing regexp: invalid nested repetition operator: `**`' },
  { pattern: '*a', error: 'error parsing regexp: missing argument to repetition operator: `*`' },
  { pattern: 'a|+', error: 'error parsing regexp: missing argument to repetition operator: `+`' },
  { pattern: '(a', error: 'error parsing regexp: missing closing ): `(a`' },
  { pattern: 'a)', error: 'error parsing regexp: unexpected ): `a)`' },
  { pattern: '(a)\\1', error: 'error parsing regexp: invalid escape sequence: `\\1`' },
  { pattern: 'a{1001}', error: 'error parsing regexp: invalid repeat count: `{1001}`' },
  { pattern: 'a{3,2}', error: 'error parsing regexp: invalid repeat count: `{3,2}`' },
  { pattern: '[z-a]', error: 'error parsing regexp: invalid character class range: `z-a`' },
  { pattern: '\\q', error: 'error parsing regexp: invalid escape sequence: `\\q`' },
  { pattern: 'a\\', error: 'error parsing regexp: trailing backslash at end of expression: ``' },
  { pattern: '[[:foo:]]', error: 'error parsing regexp: invalid character class: `[:foo:]`' },
];

for (const tc of refused) {
  test(`go regexp: ${tc.pattern} is refused with Go's message`, () => {
    assert.deepEqual(compileGoRegexp(tc.pattern), { ok: false, error: tc.error });
  });
}

test('go regexp: matching stays linear where a backtracking engine explodes', () => {
  const r = compileGoRegexp('^(a+)+$');
  assert.ok(r.ok);
  assert.equal(r.regexp.test(`${'a'.repeat(5000)}b`), false);
  assert.equal(r.regexp.test('a'.repeat(5000)), true);
});

test('go regexp: nested counts beyond 1000 and huge programs are refused', () => {
  assert.deepEqual(compileGoRegexp('(a{500}){3}'), { ok: false, error: 'error parsing regexp: invalid repeat count: `{3}`' });
  const big = compileGoRegexp('[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{1000}');
  assert.equal(big.ok, false);
});

test('go regexp: nesting is bounded as in Go, without exhausting the stack', () => {
  const deep = (n: number) => `${'('.repeat(n)}a${')'.repeat(n)}`;
  assert.equal(compileGoRegexp(deep(999)).ok, true);
  const r = compileGoRegexp(deep(5000));
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /^error parsing regexp: expression nests too deeply: /);
});

test('go regexp: a pattern of a million characters is handled (refused by size, not by a crash)', () => {
  const r = compileGoRegexp(`(?P<${'n'.repeat(1_000_000)}`);
  assert.equal(r.ok, false);
  assert.equal(compileGoRegexp('a'.repeat(1_000_000)).ok, false);
});

test('go regexp: answers stay right when the DFA cache overflows and starts over', () => {
  // The 13th character from the end is an `a`: its DFA has 2^13 states, beyond the cache bound.
  const r = compileGoRegexp('^(a|b)*a(a|b){12}$');
  assert.ok(r.ok);
  const next = seededRandom(7);
  for (let n = 0; n < 3000; n++) {
    const s = Array.from({ length: 20 }, () => (next() < 0.5 ? 'a' : 'b')).join('');
    assert.equal(r.regexp.test(s), s[s.length - 13] === 'a', s);
  }
});
