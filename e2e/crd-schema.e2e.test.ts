// The generated CRDs (issue 15 item 6) against a real apiserver: nothing an OpenKruise user stores is pruned,
// kubectl explain documents the fields, and values upstream's schema does not restrict reach the webhook.
//
// Pruning is judged on copies of the CRDs under another group: the same schemas with no webhook and no controller
// in the way (the real group's mutating webhook defaults fields, its controllers write status), so an object read
// back must equal, field for field, the every-field fixture that was written (e2e/harness/crd-fixtures.ts). On the
// real group the mutating webhook still drops container fields corev1 does not know, as OpenKruise's does (it
// re-encodes the SidecarSet from Go types; shared/domain/sidecarset-defaults.ts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadAll } from 'js-yaml';
import { CRD_FIXTURES, NODE_IMAGE_V1BETA1 } from './harness/crd-fixtures.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const skip = typeof s === 'string' ? s : false;
const repo = join(import.meta.dirname, '..');
const crdDir = join(repo, 'charts/kruise-ts/files/crds');
const MIRROR = 'crd-schema.e2e.kruise-ts.io';

type Crd = { metadata: { name: string }; spec: { group: string; names: { plural: string; shortNames?: string[] }; scope: string; versions: { name: string; storage: boolean }[]; conversion?: unknown } };
type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown>; spec?: unknown; status?: unknown };

/**
 * The group a version's mirror lives in: one mirror per version of a CRD converted by the webhook (SidecarSet
 * v1alpha1 and v1beta1), holding that version alone, stored, with no conversion (the webhook converts only
 * apps.kruise.io), so each fixture is judged by its own version's schema. CRDs with conversion None keep all their
 * versions in one mirror, as the apiserver serves them (a NodeImage written as v1beta1 can be read as v1alpha1).
 */
const perVersion = (crd: Crd) => crd.spec.versions.length > 1 && !!crd.spec.conversion && (crd.spec.conversion as { strategy?: string }).strategy === 'Webhook';

/** The committed CRDs moved to the mirror group(s) (short names dropped: they would clash with the real ones). */
function mirrorCrds(): Crd[] {
  return readdirSync(crdDir).filter((f) => f.endsWith('.yaml')).flatMap((f) => {
    const crd = (loadAll(readFileSync(join(crdDir, f), 'utf8')) as (Crd | null)[]).find((d) => d) as Crd;
    delete crd.spec.names.shortNames;
    const split = perVersion(crd);
    delete crd.spec.conversion;
    return crd.spec.versions.map((v) => {
      const group = split ? `${v.name}.${MIRROR}` : MIRROR;
      const versions = split ? [{ ...v, storage: true }] : crd.spec.versions;
      return { ...crd, metadata: { name: `${crd.spec.names.plural}.${group}` }, spec: { ...crd.spec, group, versions } };
    }).filter((c, i, all) => all.findIndex((o) => o.metadata.name === c.metadata.name) === i);
  });
}

const established = (name: string) =>
  kubectl(['get', 'crd', name, '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}']).stdout === 'True';

const sidecarSet = (name: string, spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name }, spec });

describe('CRD schemas', { skip }, () => {
  const crds = skip ? [] : mirrorCrds();

  before(async () => {
    kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds }));
    for (const c of crds) await eventually(`${c.metadata.name} Established`, () => established(c.metadata.name), 60_000);
  });

  after(() => {
    for (const c of crds) kubectl(['delete', 'crd', c.metadata.name, '--wait=false']);
  });

  for (const { plural, version = 'v1alpha1', object } of CRD_FIXTURES) {
    it(`a ${object.kind} carrying every ${version} field reads back unchanged, spec and status (nothing pruned or defaulted)`, () => {
      const o = structuredClone(object) as Obj;
      const group = crds.find((c) => c.spec.names.plural === plural && c.spec.versions.some((v) => v.name === version))!.spec.group;
      o.apiVersion = `${group}/${version}`;
      const where = typeof o.metadata.namespace === 'string' ? ['-n', o.metadata.namespace] : [];
      const resource = `${plural}.${version}.${group}`;
      kubectlOk(['create', '-f', '-'], JSON.stringify(o));
      try {
        const created = getJson<Obj>([resource, String(o.metadata.name), ...where]);
        assert.deepEqual(created.spec, object.spec, 'spec as written');
        // status is a subresource: written by its own update, as the controllers do.
        const withStatus = { ...created, status: object.status };
        kubectlOk(['replace', '--subresource=status', '-f', '-'], JSON.stringify(withStatus));
        const back = getJson<Obj>([resource, String(o.metadata.name), ...where]);
        assert.deepEqual(back.status, object.status, 'status as written');
        assert.deepEqual(back.spec, object.spec, 'spec unchanged by the status update');
      } finally {
        kubectl(['delete', resource, String(o.metadata.name), ...where, '--wait=false']);
      }
    });
  }

  // OpenKruise v1.9.0 added spec.progressDeadlineSeconds: its clients apply it, and server-side apply refuses a field
  // the schema does not declare (`.spec.progressDeadlineSeconds: field not declared in schema`).
  it('server-side apply of a CloneSet carrying progressDeadlineSeconds keeps it; the webhook judges it as v1.9.0', () => {
    const cloneSet = (name: string, progressDeadlineSeconds: number) => JSON.stringify({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: 'default' },
      spec: { replicas: 0, minReadySeconds: 5, progressDeadlineSeconds, selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
    });
    try {
      kubectlOk(['apply', '--server-side', '--field-manager=openkruise-client', '-f', '-'], cloneSet('ssa-deadline', 600));
      const back = getJson<{ spec: { progressDeadlineSeconds?: number } }>(['clonesets.apps.kruise.io', 'ssa-deadline', '-n', 'default']);
      assert.equal(back.spec.progressDeadlineSeconds, 600);
      kubectlOk(['apply', '--server-side', '--field-manager=openkruise-client', '-f', '-'], cloneSet('ssa-deadline', 900));
      assert.equal(getJson<{ spec: { progressDeadlineSeconds?: number } }>(['clonesets.apps.kruise.io', 'ssa-deadline', '-n', 'default']).spec.progressDeadlineSeconds, 900, 'changed on update');
      const bad = kubectl(['apply', '--server-side', '--dry-run=server', '--field-manager=openkruise-client', '-f', '-'], cloneSet('ssa-deadline-bad', 5));
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /spec\.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds/);
    } finally {
      kubectl(['delete', 'clonesets.apps.kruise.io', 'ssa-deadline', '-n', 'default', '--wait=false']);
    }
  });

  // Conversion None (spec/openkruise-v1.9.md §1): the apiserver rewrites apiVersion only and prunes what the other
  // version's schema lacks.
  it('a v1beta1 NodeImage read as v1alpha1 has its pullSecrets without mode; read as v1beta1, with it', () => {
    const o = { ...structuredClone(NODE_IMAGE_V1BETA1), apiVersion: `${MIRROR}/v1beta1`, metadata: { name: 'mode-pruned' } };
    kubectlOk(['create', '-f', '-'], JSON.stringify(o));
    try {
      const secrets = (v: string) => getJson<{ spec: typeof NODE_IMAGE_V1BETA1.spec }>([`nodeimages.${v}.${MIRROR}`, 'mode-pruned']).spec.images['registry.example/app'].pullSecrets;
      assert.deepEqual(secrets('v1beta1'), NODE_IMAGE_V1BETA1.spec.images['registry.example/app'].pullSecrets);
      assert.deepEqual(secrets('v1alpha1'), NODE_IMAGE_V1BETA1.spec.images['registry.example/app'].pullSecrets.map(({ mode: _m, ...r }) => r));
    } finally {
      kubectl(['delete', `nodeimages.${MIRROR}`, 'mode-pruned', '--wait=false']);
    }
  });

  // v1beta1, the preferred version, documents the core/v1 Container; v1alpha1 leaves it schemaless (scripts/crd-schema.ts).
  it('kubectl explain sidecarset.spec.containers.transferEnv explains the field, and the core/v1 fields of a sidecar container too', () => {
    assert.match(kubectlOk(['explain', 'sidecarsets.spec.containers.transferEnv', '--api-version=apps.kruise.io/v1alpha1']), /FIELD: transferEnv <\[\]Object>/);
    const transferEnv = kubectlOk(['explain', 'sidecarsets.spec.containers.transferEnv']);
    assert.match(transferEnv, /FIELD: transferEnv <\[\]Object>/);
    // explain wraps descriptions: compare with whitespace runs made single spaces.
    const flat = (t: string) => t.replace(/\s+/g, ' ');
    assert.match(flat(transferEnv), /TransferEnv copies environment variables from other containers of the pod/);
    for (const f of ['sourceContainerName', 'sourceContainerNameFrom', 'envName', 'envNames']) assert.match(transferEnv, new RegExp(`^\\s+${f}\\s`, 'm'), f);
    const runAsUser = kubectlOk(['explain', 'sidecarsets.spec.containers.securityContext.runAsUser', '--api-version=apps.kruise.io/v1beta1']);
    assert.match(flat(runAsUser), /The UID to run the entrypoint of the container process/);
  });

  // Upstream's schema has no enum on updateStrategy.type, so a bad value is the webhook's to judge: OpenKruise's
  // does not check the type itself (spec/webhooks.md §3.1 6.), so with a selector the SidecarSet is admitted, and
  // without one the answer is the webhook's, not the apiserver's `Unsupported value`.
  it('a bad updateStrategy.type reaches the webhook: its message, not the apiserver\'s Unsupported value', () => {
    const denied = kubectl(['create', '--dry-run=server', '-f', '-'], sidecarSet('bad-type-no-selector', {
      updateStrategy: { type: 'Sometimes' }, containers: [{ name: 'side', image: 'busybox:1.36' }],
    }));
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /admission webhook "[^"]+" denied the request/);
    assert.match(denied.stderr, /spec\.selector: Required value: no selector defined for SidecarSet/);
    assert.doesNotMatch(denied.stderr, /Unsupported value/);

    const admitted = kubectl(['create', '--dry-run=server', '-f', '-'], sidecarSet('bad-type', {
      selector: { matchLabels: { app: 'bad-type' } }, updateStrategy: { type: 'Sometimes' }, containers: [{ name: 'side', image: 'busybox:1.36' }],
    }));
    assert.equal(admitted.code, 0, admitted.stderr);
  });

  it('a bad upgradeType is not refused by the apiserver\'s schema either', () => {
    const r = kubectl(['create', '--dry-run=server', '-f', '-'], sidecarSet('bad-upgrade-type', {
      containers: [{ name: 'side', image: 'busybox:1.36', upgradeStrategy: { upgradeType: 'WarmUpgrade' } }],
    }));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "[^"]+" denied the request/);
    assert.doesNotMatch(r.stderr, /Unsupported value: "WarmUpgrade"/);
  });
});
