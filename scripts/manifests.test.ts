// manifests/ and the Helm chart cannot drift: the committed files are what `npm run manifests` writes, and
// `kubectl kustomize` of manifests/ (and of its cert-manager overlay, whose patches are hand-written) yields the
// objects `helm template` does. CI builds helm in e2e/setup.sh (e2e/cluster/build.sh).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';
import { CERT_MANAGER_VALUES, CHART_DIR, GENERATED_HEADER, MANIFEST_VALUES, findHelm, helmTemplate, manifestFiles, objectsByKey } from './chart.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const helm = findHelm(repoRoot, process.env);
const noHelm = helm ? false : 'helm is not built (bash e2e/cluster/build.sh builds it into the cache); skipped';
const hasKubectl = (() => { try { execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' }); return true; } catch { return false; } })();

const kustomize = (dir: string) => objectsByKey(loadAll(execFileSync('kubectl', ['kustomize', join(repoRoot, dir)], { encoding: 'utf8' })));

function assertSameObjects(actual: Map<string, unknown>, expected: Map<string, unknown>, what: string) {
  assert.deepEqual([...actual.keys()], [...expected.keys()], `${what}: the same objects`);
  for (const [k, v] of expected) assert.deepEqual(actual.get(k), v, `${what}: ${k}`);
}

describe('manifests/ rendered from charts/kruise-ts', { skip: noHelm }, () => {
  const render = (values: readonly string[]) => helmTemplate(helm as string, join(repoRoot, CHART_DIR), values);

  it('the committed generated files are what npm run manifests writes, and no stale one is left', () => {
    const files = manifestFiles(render(MANIFEST_VALUES), render(CERT_MANAGER_VALUES));
    for (const [rel, text] of files) {
      const path = join(repoRoot, 'manifests', rel);
      assert.ok(existsSync(path), `manifests/${rel} is missing: run npm run manifests`);
      assert.equal(readFileSync(path, 'utf8'), text, `manifests/${rel} differs from the chart: run npm run manifests`);
    }
    for (const dir of ['crd', 'base', 'overlays/cert-manager']) {
      for (const f of readdirSync(join(repoRoot, 'manifests', dir))) {
        const generated = readFileSync(join(repoRoot, 'manifests', dir, f), 'utf8').startsWith(GENERATED_HEADER);
        assert.ok(!generated || files.has(`${dir}/${f}`), `manifests/${dir}/${f} no longer comes from the chart`);
      }
    }
  });

  it('kubectl kustomize manifests/ yields the objects of helm template with the default values', { skip: !hasKubectl && 'no kubectl' }, () => {
    assertSameObjects(kustomize('manifests'), objectsByKey(loadAll(render(MANIFEST_VALUES))), 'manifests/');
  });

  it('kubectl kustomize manifests/overlays/cert-manager yields the objects of helm template with externalCerts', { skip: !hasKubectl && 'no kubectl' }, () => {
    assertSameObjects(kustomize('manifests/overlays/cert-manager'), objectsByKey(loadAll(render(CERT_MANAGER_VALUES))), 'cert-manager overlay');
  });
});
