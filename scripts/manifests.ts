// `npm run manifests`: writes manifests/ (crd/*.yaml, base/*.yaml, overlays/cert-manager/certificate.yaml) from
// `helm template charts/kruise-ts`, so kustomize and Helm install the same objects. The kustomization.yaml files
// and the overlay's patches stay hand-written; scripts/manifests.test.ts checks that both renderings agree.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CERT_MANAGER_VALUES, CHART_DIR, GENERATED_HEADER, MANIFEST_VALUES, findHelm, helmTemplate, manifestFiles } from './chart.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function main(): number {
  const helm = findHelm(repoRoot, process.env);
  if (!helm) {
    process.stderr.write('helm is not built: run `bash e2e/cluster/build.sh` first\n');
    return 1;
  }
  const chart = join(repoRoot, CHART_DIR);
  const files = manifestFiles(helmTemplate(helm, chart, MANIFEST_VALUES), helmTemplate(helm, chart, CERT_MANAGER_VALUES));
  const out = join(repoRoot, 'manifests');
  // A template the chart no longer has leaves no stale generated file behind.
  for (const dir of ['crd', 'base', 'overlays/cert-manager']) {
    for (const f of readdirSync(join(out, dir))) {
      const rel = `${dir}/${f}`;
      if (!files.has(rel) && readFileSync(join(out, rel), 'utf8').startsWith(GENERATED_HEADER)) rmSync(join(out, rel));
    }
  }
  for (const [rel, text] of files) writeFileSync(join(out, rel), text);
  process.stdout.write(`wrote ${files.size} files under manifests/\n`);
  return 0;
}

process.exitCode = main();
