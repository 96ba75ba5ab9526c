// `npm run crds`: writes charts/kruise-ts/files/crds from the API types (shared/api), with the embedded Kubernetes
// types taken from Kubernetes' generated OpenAPI (scripts/openapi-defs.ts; built on first use when missing). Then
// run `npm run manifests` so manifests/crd follows. scripts/crds.test.ts checks the committed files are current.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CRD_DIR, renderCrds } from './crds-render.js';
import { buildOpenapiDefs, loadDefinitions, openapiDefsPath } from './openapi-defs.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function main(): number {
  const binary = openapiDefsPath(repoRoot, process.env);
  let defs = loadDefinitions(binary);
  if (!defs) {
    process.stderr.write(`building ${binary}\n`);
    buildOpenapiDefs(repoRoot, binary, process.env);
    defs = loadDefinitions(binary);
  }
  if (!defs) throw new Error(`${binary} did not build`);
  const files = renderCrds(defs);
  const dir = join(repoRoot, CRD_DIR);
  for (const f of readdirSync(dir)) if (!files.has(f)) rmSync(join(dir, f));
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  process.stdout.write(`wrote ${files.size} CRDs under ${CRD_DIR} (${[...files.values()].reduce((n, t) => n + t.length, 0)} bytes)\n`);
  return 0;
}

process.exitCode = main();
