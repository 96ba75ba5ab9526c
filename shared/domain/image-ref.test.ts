import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultImagePullPolicy, ImageReferenceError, normalizeImageRef, parseImageReference } from './image-ref.js';

const hex = (c: string, n: number) => c.repeat(n);

// Expected values were checked against github.com/distribution/reference ParseNormalizedNamed (v0.5.0).
const parsed = [
  { name: 'a bare name is a Docker Hub official image', image: 'nginx', domain: 'docker.io', path: 'library/nginx', tag: '', digest: '' },
  { name: 'a tag is split off', image: 'dns:1.0', domain: 'docker.io', path: 'library/dns', tag: '1.0', digest: '' },
  { name: 'index.docker.io is normalised to docker.io', image: 'index.docker.io/library/nginx:1', domain: 'docker.io', path: 'library/nginx', tag: '1', digest: '' },
  { name: 'a registry with a port is not mistaken for a tag', image: 'localhost:5000/foo:bar', domain: 'localhost:5000', path: 'foo', tag: 'bar', digest: '' },
  {
    name: 'registry, port, path, tag and digest together',
    image: `registry.example.com:5000/team/app:v1@sha256:${hex('a', 64)}`,
    domain: 'registry.example.com:5000', path: 'team/app', tag: 'v1', digest: `sha256:${hex('a', 64)}`,
  },
  { name: 'a digest without a tag', image: `foo@sha256:${hex('b', 64)}`, domain: 'docker.io', path: 'library/foo', tag: '', digest: `sha256:${hex('b', 64)}` },
  { name: 'an upper-case first element is a registry', image: 'MyReg/foo', domain: 'MyReg', path: 'foo', tag: '', digest: '' },
  { name: 'tags may be upper-case', image: 'foo:LATEST', domain: 'docker.io', path: 'library/foo', tag: 'LATEST', digest: '' },
  { name: 'an IPv6 registry', image: '[::1]:5000/foo', domain: '[::1]:5000', path: 'foo', tag: '', digest: '' },
];
for (const tc of parsed) {
  test(`parseImageReference: ${tc.name}`, () => {
    const r = parseImageReference(tc.image);
    assert.ok(r.ok, r.ok ? '' : r.error);
    assert.deepEqual(r.ref, { domain: tc.domain, path: tc.path, name: `${tc.domain}/${tc.path}`, tag: tc.tag, digest: tc.digest });
  });
}

const rejected = [
  { name: 'an upper-case repository', image: 'Nginx' },
  { name: 'a 64-character hex identifier', image: hex('a', 64) },
  { name: 'an unsupported digest algorithm', image: `foo@md5:${hex('a', 32)}` },
  { name: 'a truncated digest', image: 'foo@sha256:abc' },
  { name: 'an empty tag', image: 'foo:' },
  { name: 'the empty string', image: '' },
  { name: 'a tag longer than 128 characters', image: `foo:${hex('x', 129)}` },
  { name: 'upper-case hex in a digest', image: `foo@sha256:${hex('B', 64)}` },
];
for (const tc of rejected) {
  test(`parseImageReference rejects ${tc.name}`, () => assert.equal(parseImageReference(tc.image).ok, false));
}

const policies = [
  { name: 'an explicit version tag', image: 'dns:1.0', policy: 'IfNotPresent' },
  { name: 'the latest tag', image: 'nginx:latest', policy: 'Always' },
  { name: 'no tag and no digest (implicitly latest)', image: 'busybox', policy: 'Always' },
  { name: 'a digest only', image: `foo@sha256:${hex('b', 64)}`, policy: 'IfNotPresent' },
  { name: 'a registry port but no tag', image: 'localhost:5000/foo', policy: 'Always' },
  { name: 'an upper-case LATEST tag (case-sensitive compare)', image: 'foo:LATEST', policy: 'IfNotPresent' },
  { name: 'an unparseable image', image: 'Nginx', policy: 'IfNotPresent' },
  { name: 'an empty image', image: '', policy: 'IfNotPresent' },
];
for (const tc of policies) {
  test(`defaultImagePullPolicy for ${tc.name} is ${tc.policy}`, () => assert.equal(defaultImagePullPolicy(tc.image), tc.policy));
}

// NodeImage keys images by (familiar name, tag-or-digest).
const normalised = [
  { name: 'a bare name gets tag latest', ref: 'nginx', want: { name: 'nginx', tag: 'latest' } },
  { name: 'docker.io/library is dropped', ref: 'docker.io/library/nginx:1.9', want: { name: 'nginx', tag: '1.9' } },
  { name: 'a docker hub org is kept', ref: 'openkruise/kruise-manager:v1.8.4', want: { name: 'openkruise/kruise-manager', tag: 'v1.8.4' } },
  { name: 'a registry with port is kept', ref: 'localhost:5000/app:dev', want: { name: 'localhost:5000/app', tag: 'dev' } },
  { name: 'a digest is used as the tag', ref: `quay.io/org/app@sha256:${'a'.repeat(64)}`, want: { name: 'quay.io/org/app', tag: `sha256:${'a'.repeat(64)}` } },
];
for (const tc of normalised) {
  test(`normalizeImageRef: ${tc.name}`, () => assert.deepEqual(normalizeImageRef(tc.ref), tc.want));
}

const normaliseRejected = [
  { name: 'an upper-case repository', ref: 'Nginx:1', msg: /must be lowercase/ },
  { name: 'a tag with a slash-free colon mess', ref: 'nginx:1:2', msg: /invalid reference format/ },
  { name: 'an empty string', ref: '', msg: /at least one component/ },
  { name: 'a malformed digest', ref: 'nginx@sha256:xyz', msg: /invalid reference format/ },
];
for (const tc of normaliseRejected) {
  test(`normalizeImageRef rejects ${tc.name}`, () => {
    assert.throws(() => normalizeImageRef(tc.ref), (err: unknown) => err instanceof ImageReferenceError && tc.msg.test(err.message));
  });
}
