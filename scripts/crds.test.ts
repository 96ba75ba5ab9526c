// The committed CRDs (charts/kruise-ts/files/crds) are what `npm run crds` writes from the API types, document every
// field, and keep none of the enums and required fields OpenKruise's CRDs do not have. The drift check needs the
// openapi-defs binary (e2e/cluster/build.sh builds it, as CI's e2e/setup.sh does); without it that test skips.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';
import { CRDS } from '../shared/api/crds.js';
import { CRD_DIR, CRD_HEADER, crdFileName, renderCrds } from './crds-render.js';
import type { JSONSchemaProps } from './crd-schema.js';
import { loadDefinitions, openapiDefsPath } from './openapi-defs.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const committed = new Map(readdirSync(join(repoRoot, CRD_DIR)).map((f) => [f, readFileSync(join(repoRoot, CRD_DIR, f), 'utf8')]));
type Crd = { metadata: { name: string }; spec: { versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
const crd = (file: string) => (loadAll(committed.get(file) ?? '') as (Crd | null)[]).find((d) => d) as Crd;
const schemaOf = (file: string, version = 'v1alpha1') => crd(file).spec.versions.find((v) => v.name === version)!.schema.openAPIV3Schema;

/** Every property path of a schema (objects, array items as `[]`, map values as `{}`) with its node. */
function* nodes(s: JSONSchemaProps, path = ''): Generator<[string, JSONSchemaProps]> {
  for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, JSONSchemaProps>)) {
    yield [`${path}.${k}`, p];
    yield* nodes(p, `${path}.${k}`);
  }
  if (s.items) yield* [[`${path}[]`, s.items as JSONSchemaProps] as [string, JSONSchemaProps], ...nodes(s.items as JSONSchemaProps, `${path}[]`)];
  const values = s.additionalProperties;
  if (values && typeof values === 'object') yield* [[`${path}{}`, values as JSONSchemaProps] as [string, JSONSchemaProps], ...nodes(values as JSONSchemaProps, `${path}{}`)];
}

// Items and map values are described by their field; the root's metadata may carry no description (the apiserver
// refuses anything but `type: object` there).
const isProperty = (path: string) => !path.endsWith('[]') && !path.endsWith('{}') && path !== '.metadata';
const undocumented = ([p, n]: [string, JSONSchemaProps]) => isProperty(p) && !(typeof n.description === 'string' && n.description.trim());
const at = (s: JSONSchemaProps, path: string) => [...nodes(s)].find(([p]) => p === path)?.[1];

describe('the API schemas (shared/api)', () => {
  for (const c of CRDS) {
    for (const v of c.versions) {
      it(`${c.kind} ${v.name}: every field of the TypeBox schema has a description`, () => {
        const missing = [...nodes(v.schema as unknown as JSONSchemaProps)].filter(undocumented).map(([p]) => p);
        assert.deepEqual(missing, []);
      });
    }
  }
});

describe('the committed CRDs (charts/kruise-ts/files/crds)', () => {
  it('are one file per kind of shared/api/crds.ts, each with the generated header', () => {
    assert.deepEqual([...committed.keys()].sort(), CRDS.map(crdFileName).sort());
    for (const [f, text] of committed) assert.ok(text.startsWith(CRD_HEADER), `${f}: run npm run crds`);
  });

  for (const c of CRDS) {
    const file = crdFileName(c);
    it(`${file}: every property has a description (kubectl explain explains every field)`, () => {
      for (const v of c.versions) {
        const missing = [...nodes(schemaOf(file, v.name))].filter(undocumented).map(([p]) => p);
        assert.deepEqual(missing, [], `${v.name}: no description`);
      }
    });

    // kubectl apply without --server-side keeps the whole object in the last-applied-configuration annotation,
    // which the apiserver caps at 256 KiB; manifests/ is applied that way (kubectl apply -k).
    it(`${file}: fits kubectl apply's last-applied annotation (256 KiB of JSON)`, () => {
      assert.ok(JSON.stringify(crd(file)).length < 262144, `${file} is ${JSON.stringify(crd(file)).length} bytes of JSON`);
    });
  }

  // Issue 15 item 6: these made the apiserver answer `Unsupported value` / `Required value` where OpenKruise's
  // webhook speaks, or is silent.
  const cases: [string, string, (n: JSONSchemaProps | undefined) => void][] = [
    ['apps.kruise.io_sidecarsets.yaml', '.spec.updateStrategy.type', (n) => assert.equal(n?.enum, undefined)],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.containers[].upgradeStrategy.upgradeType', (n) => assert.equal(n?.enum, undefined)],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.containers[].podInjectPolicy', (n) => assert.equal(n?.enum, undefined)],
    ['apps.kruise.io_resourcedistributions.yaml', '.spec.targets.includedNamespaces.list[]', (n) => assert.equal(n?.required, undefined)],
    ['apps.kruise.io_nodeimages.yaml', '.spec.images{}.pullSecrets[]', (n) => assert.equal(n?.required, undefined)],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.selector.matchExpressions', (n) => assert.equal(n?.['x-kubernetes-list-type'], 'atomic')],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.containers[]', (n) => assert.equal(n?.['x-kubernetes-preserve-unknown-fields'], true)],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.containers[].transferEnv', (n) => assert.match(String(n?.description), /environment variables/)],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.injectionStrategy.revision.policy', (n) => assert.deepEqual([n?.default, n?.enum], ['Always', ['Always', 'Partial']])],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.containers[].resourcesPolicy', (n) => assert.deepEqual(n?.required, ['resourcesExpr', 'targetContainersMode'])],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.initContainers[].resourcesPolicy.targetContainersNameRegex', (n) => assert.equal(n?.default, '.*')],
    ['apps.kruise.io_sidecarsets.yaml', '.spec.containers[].resourcesPolicy.targetContainersMode', (n) => assert.deepEqual(n?.enum, ['sum', 'max'])],
    ['apps.kruise.io_containerrecreaterequests.yaml', '.spec.containers[].ports[].protocol', (n) => assert.equal(n?.default, 'TCP')],
    ['apps.kruise.io_containerrecreaterequests.yaml', '.spec.containers[].ports[].containerPort', (n) => assert.equal(n?.default, undefined)],
    ['apps.kruise.io_imagepulljobs.yaml', '.spec.parallelism', (n) => assert.equal(n?.['x-kubernetes-int-or-string'], true)],
  ];
  for (const [file, path, check] of cases) {
    it(`${file} ${path} is as upstream's`, () => check(at(schemaOf(file), path)));
  }

  it('the SidecarSet containers carry the whole core/v1 Container, open (no required, no defaults, unknown fields kept)', () => {
    const c = at(schemaOf('apps.kruise.io_sidecarsets.yaml', 'v1beta1'), '.spec.containers[]')!;
    for (const f of ['image', 'env', 'resources', 'securityContext', 'lifecycle', 'volumeMounts', 'restartPolicy']) assert.ok((c.properties as object)[f as keyof object], f);
    const open = [...nodes(c)].filter(([p]) => !/\.(podInjectPolicy|upgradeStrategy|shareVolumePolicy|shareVolumeDevicePolicy|transferEnv|resourcesPolicy)/.test(p));
    assert.deepEqual(open.filter(([, n]) => n.required || n.default !== undefined || n['x-kubernetes-list-type']).map(([p]) => p), []);
    assert.deepEqual(open.filter(([, n]) => n.properties && !n['x-kubernetes-preserve-unknown-fields']).map(([p]) => p), []);
  });
});

describe('the SidecarSet CRD of OpenKruise v1.9 (spec/openkruise-v1.9.md §1, §2.1, §2.3)', () => {
  const file = 'apps.kruise.io_sidecarsets.yaml';
  type Version = { name: string; served: boolean; storage: boolean; additionalPrinterColumns?: unknown; subresources?: unknown };
  const sidecarSets = () => crd(file) as unknown as { spec: { versions: Version[]; conversion?: unknown } };

  it('serves v1alpha1 and v1beta1, stores v1beta1, with the same printer columns and the status subresource', () => {
    const versions = sidecarSets().spec.versions;
    assert.deepEqual(versions.map((v) => [v.name, v.served, v.storage]), [['v1alpha1', true, false], ['v1beta1', true, true]]);
    assert.deepEqual(versions[0]!.additionalPrinterColumns, versions[1]!.additionalPrinterColumns);
    assert.deepEqual((versions[1]!.additionalPrinterColumns as { name: string }[]).map((c) => c.name), ['MATCHED', 'UPDATED', 'READY', 'AGE']);
    for (const v of versions) assert.deepEqual(v.subresources, { status: {} }, v.name);
  });

  it('converts through the webhook\'s /convert on port 443 (the chart names the Service)', () => {
    assert.deepEqual(sidecarSets().spec.conversion, {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { service: { path: '/convert', port: 443 } } },
    });
  });

  it('v1beta1 has spec.customVersion and no spec.namespace; v1alpha1 the reverse', () => {
    const alpha = schemaOf(file, 'v1alpha1');
    const beta = schemaOf(file, 'v1beta1');
    assert.ok(at(alpha, '.spec.namespace') && !at(alpha, '.spec.customVersion'));
    assert.ok(at(beta, '.spec.customVersion') && !at(beta, '.spec.namespace'));
    assert.match(String(at(beta, '.spec.injectionStrategy.revision.customVersion')?.description), /customVersion field/);
    const common = (s: JSONSchemaProps) => [...nodes(s)].map(([p]) => p).filter((p) => /^\.(status|spec\.(updateStrategy|selector|patchPodMetadata))/.test(p));
    assert.deepEqual(common(alpha), common(beta));
  });

  it('v1alpha1 keeps the sidecar fields but leaves the core/v1 Container schemaless (the CRD fits 256 KiB); volumes are schemaless in both', () => {
    const alpha = at(schemaOf(file, 'v1alpha1'), '.spec.containers[]')!;
    assert.equal(alpha['x-kubernetes-preserve-unknown-fields'], true);
    assert.deepEqual(Object.keys(alpha.properties as object).sort(), ['podInjectPolicy', 'resourcesPolicy', 'shareVolumeDevicePolicy', 'shareVolumePolicy', 'transferEnv', 'upgradeStrategy']);
    for (const v of ['v1alpha1', 'v1beta1']) {
      const volume = at(schemaOf(file, v), '.spec.volumes')!.items as JSONSchemaProps;
      assert.deepEqual([volume.type, volume['x-kubernetes-preserve-unknown-fields'], volume.properties], ['object', true, undefined], v);
    }
  });
});

const defs = loadDefinitions(openapiDefsPath(repoRoot, process.env));
describe('npm run crds', { skip: defs ? false : 'openapi-defs is not built (bash e2e/cluster/build.sh, or npm run crds builds it)' }, () => {
  it('the committed CRDs are what it writes from shared/api: run npm run crds after changing an API type', () => {
    const files = renderCrds(defs!);
    assert.deepEqual([...committed.keys()].sort(), [...files.keys()].sort());
    for (const [f, text] of files) assert.equal(committed.get(f), text, `${CRD_DIR}/${f} differs: run npm run crds`);
  });
});

