// RE2 Unicode classes as Go 1.23's regexp reads them (kruise v1.9.0 is built with Go 1.23.9). Matching cases are
// Go's regexp/testdata/re2-search.txt (the unanchored-search column) and regexp/syntax/parse_test.go (Braille, Lu,
// Any); refusals carry Go's error text from regexp/syntax parseUnicodeClass (ErrInvalidCharRange with the sequence).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SidecarSet } from '../../api/sidecarset.js';
import { validateSidecarSet } from '../validation/sidecarset.js';
import { compileGoRegexp } from './go-regexp.js';
import { aloneContext } from '../../testing/sidecarset-context.js';

const search = (pattern: string, s: string): boolean => {
  const r = compileGoRegexp(pattern);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.regexp.test(s);
};

describe('re2-search.txt: \\p and \\P on "aαβb" and "abc123²³¼½¾₀₉" (match / no match of the search)', () => {
  const greek = 'aαβb';
  const digits = 'abc123²³¼½¾₀₉';
  const cases: [string, string, boolean][] = [
    ['\\p{Greek}+', greek, true], ['^(?:\\p{Greek}+)$', greek, false], ['^(?:\\p{Greek}+)', greek, false], ['(?:\\p{Greek}+)$', greek, false],
    ['\\P{Greek}+', greek, true], ['^(?:\\P{Greek}+)$', greek, false], ['^(?:\\P{Greek}+)', greek, true], ['(?:\\P{Greek}+)$', greek, true],
    ['\\p{^Greek}+', greek, true], ['^(?:\\p{^Greek}+)$', greek, false], ['^(?:\\p{^Greek}+)', greek, true], ['(?:\\p{^Greek}+)$', greek, true],
    ['\\P{^Greek}+', greek, true], ['^(?:\\P{^Greek}+)$', greek, false], ['^(?:\\P{^Greek}+)', greek, false], ['(?:\\P{^Greek}+)$', greek, false],
    ['\\p{Nd}+', digits, true], ['^(?:\\p{Nd}+)$', digits, false], ['^(?:\\p{Nd}+)', digits, false], ['(?:\\p{Nd}+)$', digits, false],
    ['\\p{^Nd}+', digits, true], ['^(?:\\p{^Nd}+)$', digits, false], ['^(?:\\p{^Nd}+)', digits, true], ['(?:\\p{^Nd}+)$', digits, true],
    ['\\P{Nd}+', digits, true], ['^(?:\\P{Nd}+)$', digits, false], ['^(?:\\P{Nd}+)', digits, true], ['(?:\\P{Nd}+)$', digits, true],
    ['\\P{^Nd}+', digits, true], ['^(?:\\P{^Nd}+)$', digits, false], ['^(?:\\P{^Nd}+)', digits, false], ['(?:\\P{^Nd}+)$', digits, false],
    ['\\pN+', digits, true], ['^(?:\\pN+)$', digits, false], ['^(?:\\pN+)', digits, false], ['(?:\\pN+)$', digits, true],
  ];
  for (const [pattern, s, want] of cases) {
    test(`${pattern} on ${JSON.stringify(s)}: ${want ? 'match' : 'no match'}`, () => {
      assert.equal(search(pattern, s), want);
      assert.equal(search(pattern, ''), false, 'and never on ""');
    });
  }
});

describe('parse_test.go classes, scripts, categories and brackets', () => {
  const cases: [string, string[], string[]][] = [
    // [pattern, matched code points, unmatched], each as a one-character string tested anchored.
    ['\\p{Braille}', ['\u2800', '\u28ff'], ['\u27ff', '\u2900', 'a']],
    ['\\P{Braille}', ['\u27ff', '\u2900'], ['\u2800', '\u28ff']],
    ['\\p{^Braille}', ['\u27ff', '\u2900'], ['\u2800']],
    ['\\P{^Braille}', ['\u2800', '\u28ff'], ['\u2900']],
    ['[\\p{Braille}]', ['\u2800'], ['\u2900']],
    ['[\\P{Braille}]', ['\u2900'], ['\u2800']],
    ['[\\p{^Braille}]', ['\u2900'], ['\u2800']],
    ['[\\P{^Braille}]', ['\u2800'], ['\u2900']],
    ['\\p{Lu}', ['A', 'Ω', 'Ж'], ['a', 'ω', '1']],
    ['[\\p{Lu}]', ['A'], ['a']],
    ['(?i)[\\p{Lu}]', ['A', 'a', 'ω', 'ſ'], ['1', '中']],
    ['\\p{Any}', ['a', '中', '\u{10ffff}', '\n'], []],
    ['\\p{^Any}', [], ['a', '\n']],
    ['\\p{Han}', ['中', '文'], ['a', 'あ']],
    ['\\p{Hiragana}', ['あ'], ['ア']],
    ['\\p{^Latin}', ['α', '1'], ['a', 'Z']],
    ['\\P{Latin}', ['α', '-'], ['a']],
    ['\\pL', ['a', 'α', '中'], ['1', '-']],
    ['\\p{L}', ['a'], ['1']],
    ['\\PL', ['1'], ['a']],
    ['\\p{Greek}', ['α', 'Ω'], ['a']],
    ['(?i)\\p{Greek}', ['µ', 'α'], ['a']],
    ['(?i)\\P{Greek}', ['a'], ['µ', 'α']],
    ['[\\p{Greek}\\d]', ['α', '7'], ['a', '_']],
    ['[^\\p{Greek}\\d]', ['a', '_'], ['α', '7']],
    ['[\\p{Greek}a-c]', ['α', 'b'], ['d']],
    ['\\p{Zs}', [' ', '\u00a0', '\u3000'], ['\t', 'a']],
    ['\\p{Nd}', ['0', '٣'], ['²', 'a']],
    ['\\pN', ['²', '¼', '0'], ['a']],
    // Go's C is Cc|Cf|Co|Cs: an unassigned code point (U+0378) is not in it, though Unicode's (and JavaScript's) C has Cn.
    ['\\p{C}', ['\u0001', '\u00ad', '\ue000'], ['\u0378', 'a']],
    ['\\PC', ['\u0378', 'a'], ['\u0001']],
    ['\\p{Old_Italic}', ['\u{10300}'], ['a']],
  ];
  for (const [pattern, yes, no] of cases) {
    test(`${pattern}`, () => {
      for (const s of yes) assert.equal(search(`^${pattern}$`, s), true, `${pattern} should match U+${s.codePointAt(0)!.toString(16)}`);
      for (const s of no) assert.equal(search(`^${pattern}$`, s), false, `${pattern} should not match U+${s.codePointAt(0)!.toString(16)}`);
    });
  }
});

describe('names Go 1.23 does not know are "invalid character class range" with the sequence', () => {
  const refused: [string, string][] = [
    ['\\p{Foo}', '\\p{Foo}'],
    ['^\\p{Foo}+$', '\\p{Foo}'],
    ['[\\p{Foo}]', '\\p{Foo}'],
    ['\\P{^Foo}', '\\P{^Foo}'],
    // JavaScript knows these; Go 1.23 does not (long names, binary properties, Script=, other spellings, LC, Cn).
    ['\\p{Letter}', '\\p{Letter}'],
    ['\\p{Alphabetic}', '\\p{Alphabetic}'],
    ['\\p{ASCII}', '\\p{ASCII}'],
    ['\\p{Script=Greek}', '\\p{Script=Greek}'],
    ['\\p{sc=Grek}', '\\p{sc=Grek}'],
    ['\\p{Grek}', '\\p{Grek}'],
    ['\\p{greek}', '\\p{greek}'],
    ['\\p{LC}', '\\p{LC}'],
    ['\\p{Cn}', '\\p{Cn}'],
    ['\\p{Assigned}', '\\p{Assigned}'],
    // A Unicode 16 script: the runtime's Unicode has it, Go 1.23's 15.0 does not.
    ['\\p{Garay}', '\\p{Garay}'],
    ['\\pX', '\\pX'],
    ['\\p{}', '\\p{}'],
    ['\\p{^}', '\\p{^}'],
    ['a\\p', '\\p'],
    // No closing brace: Go reports the whole rest of the pattern.
    ['x\\p{Greek', '\\p{Greek'],
    ['\\p{Greek[a]', '\\p{Greek[a]'],
  ];
  for (const [pattern, seq] of refused) {
    test(`${pattern}`, () => assert.deepEqual(compileGoRegexp(pattern), { ok: false, error: `error parsing regexp: invalid character class range: \`${seq}\`` }));
  }
});

test('a SidecarSet whose targetContainersNameRegex uses Unicode classes is admitted; an unknown class is refused as upstream', () => {
  const ctx = aloneContext;
  const withRegex = (regex: string): SidecarSet => ({
    metadata: { name: 'unicode' },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      updateStrategy: { type: 'NotUpdate' },
      containers: [{
        name: 'side', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', podInjectPolicy: 'BeforeAppContainer',
        shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' },
        resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: regex, resourcesExpr: { limits: { cpu: 'cpu*50%' } } },
      }],
    },
  } as SidecarSet);
  const problems = (regex: string) => validateSidecarSet(withRegex(regex), undefined, ctx).map((v) => `${v.field}: ${v.type}: ${v.detail}`);
  for (const ok of ['^\\p{Greek}+$', '\\p{Han}', '\\p{^Latin}', '\\P{Latin}', '^\\pL+$', '\\p{L}', '[\\p{Greek}\\d]+', '^app-\\p{Nd}+$']) assert.deepEqual(problems(ok), [], ok);
  assert.deepEqual(problems('\\p{Foo}'), ['spec[0].resourcesPolicy.targetContainersNameRegex: Invalid value: invalid regex pattern: error parsing regexp: invalid character class range: `\\p{Foo}`']);
});

// Under (?i) Go matches whole fold orbits (unicode.SimpleFold), widening a class before negating it. Each row was
// checked against Go 1.23.9's regexp.MatchString.
describe('(?i) folds by orbits, as Go does', () => {
  const cases: [string, string[], string[]][] = [
    ['(?i)^k$', ['k', 'K', '\u212a'], ['x']],
    ['(?i)^[a-z]$', ['\u017f', '\u212a', 'Q'], ['\u0131', '1']],
    ['(?i)^[ſ]$', ['s', 'S', '\u017f'], ['t']],
    ['(?i)^\\W$', ['-', '\u0131'], ['\u017f', '\u212a', 'a']],
    ['(?i)^[[:^lower:]]$', ['1', '-'], ['k', 'K', '\u212a', '\u017f']],
    ['(?i)^ı$', ['\u0131'], ['I', 'i']],
    ['(?i)^I$', ['I', 'i'], ['\u0131', '\u0130']],
    ['(?i)^ß$', ['ß', '\u1e9e'], ['s']],
    ['(?i)^µ$', ['µ', 'μ', 'Μ'], ['m']],
    ['(?i)^\\p{Lu}$', ['ß', 'a', '\u01c5'], ['\u0131', '1']],
    ['(?i)^\\p{Ll}$', ['\u0345', 'A'], ['1']],
    ['(?i)^\\P{Lu}$', ['\u0131', '1'], ['ß', 'a']],
    ['(?i)^[^\\p{Lu}]$', ['\u0131'], ['ß']],
  ];
  for (const [pattern, yes, no] of cases) {
    test(pattern, () => {
      for (const s of yes) assert.equal(search(pattern, s), true, `${pattern} should match U+${s.codePointAt(0)!.toString(16)}`);
      for (const s of no) assert.equal(search(pattern, s), false, `${pattern} should not match U+${s.codePointAt(0)!.toString(16)}`);
    });
  }
});
