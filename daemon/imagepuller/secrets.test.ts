import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authsForImage, lookupCredentials, makeKeyring, type SecretLike } from './secrets.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const dockerconfigjson = (auths: Record<string, object>): SecretLike => ({
  metadata: { namespace: 'kruise-daemon-config', name: 'cred' }, type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': b64(JSON.stringify({ auths })) },
});
const entry = (user: string) => ({ username: user, password: `${user}-pw` });

describe('pull credential matching', () => {
  const cases: Array<{ name: string; keys: Record<string, object>; image: string; users: string[] }> = [
    { name: 'a docker.io key serves a familiar Docker Hub image', keys: { 'docker.io': entry('hub') }, image: 'nginx', users: ['hub'] },
    { name: 'an index.docker.io/v1/ key (docker login default) serves Docker Hub', keys: { 'https://index.docker.io/v1/': entry('hub') }, image: 'library/nginx', users: ['hub'] },
    { name: 'a registry-1.docker.io key serves docker.io/org/app', keys: { 'registry-1.docker.io': entry('hub') }, image: 'docker.io/org/app', users: ['hub'] },
    { name: 'a Docker Hub key does not serve another registry', keys: { 'docker.io': entry('hub') }, image: 'quay.io/org/app', users: [] },
    { name: 'host:port must match the port exactly', keys: { 'reg.io:5000': entry('p5000'), 'reg.io': entry('noport') }, image: 'reg.io:5000/app', users: ['p5000'] },
    { name: 'a key without port does not match a registry with one', keys: { 'reg.io': entry('noport') }, image: 'reg.io:5000/app', users: [] },
    { name: 'the longest path prefix is tried first, then shorter ones', keys: { 'reg.io': entry('host'), 'reg.io/team': entry('team'), 'reg.io/team/app': entry('app') }, image: 'reg.io/team/app', users: ['app', 'team', 'host'] },
    { name: 'a path prefix matches whole segments only', keys: { 'reg.io/te': entry('te') }, image: 'reg.io/team/app', users: [] },
    { name: 'a wildcard label matches exactly one host label', keys: { '*.example.com': entry('wild') }, image: 'reg.example.com/app', users: ['wild'] },
    { name: 'a wildcard label does not match a deeper host', keys: { '*.example.com': entry('wild') }, image: 'a.b.example.com/app', users: [] },
    { name: 'a scheme and a /v2/ prefix on the key are ignored', keys: { 'http://127.0.0.1:5001/v2/': entry('local') }, image: '127.0.0.1:5001/kruise-ts/app', users: ['local'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const keyring = makeKeyring([dockerconfigjson(c.keys)]);
      assert.deepEqual(authsForImage(keyring, c.image).map((a) => a.username), c.users);
    });
  }

  test('auth (base64 user:password) fills username and password, and a password may contain colons', () => {
    const keyring = makeKeyring([dockerconfigjson({ 'reg.io': { auth: b64('robot:pa:ss') } })]);
    assert.deepEqual(authsForImage(keyring, 'reg.io/app'), [{ username: 'robot', password: 'pa:ss' }]);
  });

  test('legacy kubernetes.io/dockercfg secrets are read as a bare registry map', () => {
    const keyring = makeKeyring([{ type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64(JSON.stringify({ 'reg.io': entry('old') })) } }]);
    assert.deepEqual(lookupCredentials(keyring, 'reg.io/app').map((e) => e.username), ['old']);
  });

  test('secrets of other types, malformed JSON and entries without credentials contribute nothing', () => {
    const keyring = makeKeyring([
      { type: 'Opaque', data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { 'reg.io': entry('x') } })) } },
      { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{not json') } },
      { type: 'kubernetes.io/dockerconfigjson', data: {} },
      dockerconfigjson({ 'reg.io': {} }),
    ]);
    assert.deepEqual(keyring, []);
  });

  test('credentials from several secrets are unioned', () => {
    const keyring = makeKeyring([dockerconfigjson({ 'reg.io': entry('a') }), dockerconfigjson({ 'reg.io': entry('b') })]);
    assert.deepEqual(authsForImage(keyring, 'reg.io/app').map((a) => a.username).sort(), ['a', 'b']);
  });

  test('an unparsable image name gets no credentials rather than an error', () => {
    assert.deepEqual(authsForImage(makeKeyring([dockerconfigjson({ 'docker.io': entry('hub') })]), 'Not A Name'), []);
  });
});
