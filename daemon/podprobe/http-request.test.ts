import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalHeaderKey, formatUrl, headersOf, newProbeRequest } from './http-request.js';

// spec §6.6 formatURL vectors (upstream prober_test.go).
const urls: Array<[string, string, number, string, string]> = [
  ['http', 'localhost', 93, '', 'http://localhost:93'],
  ['https', 'localhost', 93, '/path', 'https://localhost:93/path'],
  ['http', 'localhost', 93, '?foo', 'http://localhost:93?foo'],
  ['https', 'localhost', 93, '/path?bar', 'https://localhost:93/path?bar'],
  ['http', 'localhost', 93, '/path#foo', 'http://localhost:93/path#foo'],
  ['http', 'fd00::5', 8080, '/health', 'http://[fd00::5]:8080/health'],
  ['http', '10.0.0.1', 80, 'health', 'http://10.0.0.1:80/health'],
];
for (const [scheme, host, port, path, want] of urls) {
  test(`formatUrl(${scheme}, ${host}, ${port}, ${JSON.stringify(path)}) is ${want}`, () => assert.equal(formatUrl(scheme, host, port, path), want));
}

test('a path with a bad escape is an error with Go url.Parse wording', () => {
  assert.throws(() => formatUrl('http', 'h', 80, 'path%notvalid'), { message: 'parse "path%notvalid": invalid URL escape "%no"' });
});

test('header names are canonicalised as textproto does; values keep their order', () => {
  assert.equal(canonicalHeaderKey('HOST'), 'Host');
  assert.equal(canonicalHeaderKey('FOO-bAR'), 'Foo-Bar');
  assert.equal(canonicalHeaderKey('x-forwarded-for'), 'X-Forwarded-For');
  assert.equal(canonicalHeaderKey('bad header'), 'bad header');
  const h = headersOf([
    { name: 'accept', value: 'application/json' }, { name: 'Accept', value: '*/*' },
    { name: 'pragma', value: 'no-cache' }, { name: 'X-forwarded-for', value: '1.2.3.4' },
  ]);
  assert.deepEqual([...h], [['Accept', ['application/json', '*/*']], ['Pragma', ['no-cache']], ['X-Forwarded-For', ['1.2.3.4']]]);
});

test('request with host, empty scheme and a custom header gets User-Agent and Accept defaults', () => {
  const r = newProbeRequest({ port: 8080, path: '/health', host: 'localhost', scheme: '', httpHeaders: [{ name: 'X-Custom-Header', value: 'value' }] }, '', 'test');
  assert.equal(r.url, 'http://localhost:8080/health');
  assert.deepEqual([...r.headers], [['X-Custom-Header', ['value']], ['User-Agent', ['kube-test']], ['Accept', ['*/*']]]);
  assert.equal(r.host, '');
});

test('without a host the pod IP is used; the daemon user agent is kube-probe', () => {
  const r = newProbeRequest({ port: 9090, path: '/metrics' }, '10.0.0.1');
  assert.equal(r.url, 'http://10.0.0.1:9090/metrics');
  assert.deepEqual(r.headers.get('User-Agent'), ['kube-probe']);
});

test('explicit Accept and User-Agent are kept, no defaults added; an empty Accept is removed; Host sets the host', () => {
  const r = newProbeRequest({ port: 80, httpHeaders: [{ name: 'Accept', value: 'application/json' }, { name: 'User-Agent', value: 'custom-agent' }] }, '10.0.0.1');
  assert.deepEqual([...r.headers], [['Accept', ['application/json']], ['User-Agent', ['custom-agent']]]);
  const empty = newProbeRequest({ port: 80, httpHeaders: [{ name: 'accept', value: '' }, { name: 'host', value: 'example.com' }] }, '10.0.0.1');
  assert.equal(empty.headers.has('Accept'), false);
  assert.equal(empty.host, 'example.com');
});

test('ports outside 1-65535, a non-numeric named port and a bad path are errors', () => {
  assert.throws(() => newProbeRequest({ port: -1 }, '10.0.0.1'), { message: 'invalid port number: -1' });
  assert.throws(() => newProbeRequest({ port: 65536 }, '10.0.0.1'), { message: 'invalid port number: 65536' });
  assert.throws(() => newProbeRequest({ port: 'http' }, '10.0.0.1'), { message: 'invalid port number: 0' });
  assert.throws(() => newProbeRequest({ port: 80, path: 'path%notvalid' }, '10.0.0.1'), /invalid URL escape/);
  assert.equal(newProbeRequest({ port: '8080' }, '10.0.0.1').url, 'http://10.0.0.1:8080');
});
