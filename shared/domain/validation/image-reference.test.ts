import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeImageRef, parseImageReference } from './image-reference.js';

describe('normalizeImageRef', () => {
  const cases = [
    { name: 'a bare name gets tag latest', ref: 'nginx', want: { name: 'nginx', tag: 'latest' } },
    { name: 'docker.io/library is dropped', ref: 'docker.io/library/nginx:1.9', want: { name: 'nginx', tag: '1.9' } },
    { name: 'a docker hub org is kept', ref: 'openkruise/kruise-manager:v1.8.4', want: { name: 'openkruise/kruise-manager', tag: 'v1.8.4' } },
    { name: 'a registry with port is kept', ref: 'localhost:5000/app:dev', want: { name: 'localhost:5000/app', tag: 'dev' } },
    { name: 'a digest is used as the tag', ref: `quay.io/org/app@sha256:${'a'.repeat(64)}`, want: { name: 'quay.io/org/app', tag: `sha256:${'a'.repeat(64)}` } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(normalizeImageRef(c.ref), c.want));
});

describe('parseImageReference rejects', () => {
  const cases = [
    { name: 'an upper-case repository', ref: 'Nginx:1', msg: /must be lowercase/ },
    { name: 'a tag with a slash-free colon mess', ref: 'nginx:1:2', msg: /invalid reference format/ },
    { name: 'an empty string', ref: '', msg: /at least one component/ },
    { name: 'a malformed digest', ref: 'nginx@sha256:xyz', msg: /invalid reference format/ },
  ];
  for (const c of cases) it(c.name, () => assert.throws(() => parseImageReference(c.ref), c.msg));
});
