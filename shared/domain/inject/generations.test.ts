// SidecarSets with a resourceVersion (every one an informer hands out) take the cached path: per-generation frozen
// copies, injected containers reused across pods (injected-forms.ts), templated hash annotations
// (hash-annotations.ts). Each case here is injected both ways, several times, and must give the same pod each time.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type { ControllerRevisionLike } from '../../api/controller-revision.js';
import type { Container, Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { SidecarSetHashAnnotation, SidecarSetListAnnotation, SidecarSetWorkingHotUpgradeContainer } from '../../api/sidecarset.js';
import { jsonText } from '../frozen-json.js';
import { mutatePodOnCreate } from '../pod-mutation.js';
import { defaultSidecarSet } from '../sidecarset-defaults.js';
import { makeCtx, pod1, sidecarSet1, sidecarSet3 } from './fixtures.js';

let rv = 100;
/** `set` as an informer would hold it: with a resourceVersion. */
const stored = (set: SidecarSet): SidecarSet => ({ ...set, metadata: { ...set.metadata, resourceVersion: String(rv++) } });
const bare = (set: SidecarSet): SidecarSet => ({ ...set, metadata: { ...set.metadata, resourceVersion: undefined } });

const json = (p: Pod) => JSON.stringify(p);

/** Injects `pod` with the cached sets (three times) and with uncached copies; all results must agree. */
function agree(pod: () => Pod, sets: SidecarSet[], extra: Parameters<typeof makeCtx>[1] = {}): Pod {
  const want = mutatePodOnCreate(pod(), makeCtx(sets.map(bare), extra));
  let got: Pod | undefined;
  for (let i = 0; i < 3; i++) {
    got = mutatePodOnCreate(pod(), makeCtx(sets, extra));
    assert.equal(json(got), json(want), `cached run ${i}`);
    assert.deepEqual(got, JSON.parse(json(want)));
    // Whatever the cache hands out, its remembered text is its JSON.
    for (const c of [...(got.spec?.containers ?? []), ...(got.spec?.initContainers ?? [])]) assert.equal(jsonText(c), JSON.stringify(c));
    for (const v of got.spec?.volumes ?? []) assert.equal(jsonText(v), JSON.stringify(v));
  }
  return got!;
}

const transferSet = (): SidecarSet => ({
  metadata: { name: 'transfer', annotations: { [SidecarSetHashAnnotation]: 't-hash' } },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    initContainers: [{ name: 'native', image: 'n:1', restartPolicy: 'Always', transferEnv: [{ sourceContainerName: 'nginx', envNames: ['hello2', 'hello1'] }] }],
    containers: [
      { name: 'mesh', image: 'm:1', podInjectPolicy: 'AfterAppContainer', env: [{ name: 'OWN', value: '1' }], transferEnv: [{ sourceContainerName: 'nginx', envName: 'hello1' }] },
      { name: 'hot', image: 'h:1', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' }, transferEnv: [{ sourceContainerName: 'nginx', envName: 'hello2' }] },
      { name: 'logs', image: 'l:1', shareVolumePolicy: { type: 'enabled' }, volumeMounts: [{ name: 'own', mountPath: '/own' }] },
    ],
    volumes: [{ name: 'own', configMap: { name: 'c' } }],
  },
});

const withEnv = (value: string, mounts?: Container['volumeMounts']) => () => {
  const p = pod1();
  p.spec!.containers[0]!.env = [{ name: 'hello1', value }, { name: 'hello2', value: `${value}-2` }];
  if (mounts) p.spec!.containers[0]!.volumeMounts = mounts;
  return p;
};

test('cached and uncached injection agree: inits, volumes, shared mounts, transferEnv, hot upgrade, native sidecars', () => {
  const sets = [stored(sidecarSet1()), stored(sidecarSet3()), stored(transferSet())];
  agree(pod1, sets);
  for (const v of ['a', 'b', 'a', 'c']) agree(withEnv(v), sets);
  agree(withEnv('a', [{ name: 'volume-a', mountPath: '/x', subPathExpr: '$(hello1)' }]), sets);
  agree(withEnv('a', []), sets);
});

test('a remembered container is reused only for pods that lend it the same envs and mounts', () => {
  const sets = [stored(transferSet())];
  const mesh = (p: Pod) => p.spec!.containers.find((c) => c.name === 'mesh')!;
  const a1 = agree(withEnv('a'), sets);
  const a2 = agree(withEnv('a'), sets);
  const b = agree(withEnv('b'), sets);
  assert.equal(mesh(a1), mesh(a2), 'the same object for the same transferred env');
  assert.notEqual(mesh(a1), mesh(b));
  assert.deepEqual(mesh(b).env, [{ name: 'OWN', value: '1' }, { name: 'IS_INJECTED', value: 'true' }, { name: 'hello1', value: 'b' }]);
  assert.ok(Object.isFrozen(mesh(a1)) && Object.isFrozen(mesh(a1).env), 'shared between pods, so frozen');
  assert.throws(() => mesh(a1).env!.push({ name: 'X' }), TypeError);
  assert.equal(Object.isFrozen(sets[0]!.spec!.containers![0]), false, "the SidecarSet's own objects are left alone");
});

test('pods lending every time something new (a per-pod token mount) keep getting correct containers', () => {
  const sets = [stored(transferSet())];
  for (let i = 0; i < 150; i++) {
    const out = agree(withEnv(`v${i % 3}`, [{ name: `kube-api-access-${i}`, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }]), sets);
    const logs = out.spec!.containers.find((c) => c.name === 'logs')!;
    assert.deepEqual(logs.volumeMounts!.map((m) => m.name), ['own', `kube-api-access-${i}`]);
  }
});

test('pods already carrying bookkeeping annotations take the general path and agree', () => {
  const sets = [stored(sidecarSet1()), stored(transferSet())];
  const annotated = (annotations: Record<string, string>) => () => ({ ...pod1(), metadata: { ...pod1().metadata, annotations } });
  agree(annotated({ [SidecarSetHashAnnotation]: '{"old-set":"abc"}', [SidecarSetListAnnotation]: 'old-set' }), sets);
  agree(annotated({ [SidecarSetListAnnotation]: 'other' }), sets);
  agree(annotated({ [SidecarSetWorkingHotUpgradeContainer]: '{"hot":"hot-2"}' }), sets);
});

test('a changed SidecarSet (new resourceVersion) is injected as it is now', () => {
  const v1 = stored(transferSet());
  agree(withEnv('a'), [v1]);
  const v2 = stored({ ...v1, spec: { ...v1.spec!, containers: v1.spec!.containers!.map((c) => ({ ...c, image: `${c.image}-new` })) } });
  const out = agree(withEnv('a'), [v2]);
  assert.equal(out.spec!.containers.find((c) => c.name === 'mesh')!.image, 'm:1-new');
});

test('every golden case agrees between the cached and uncached paths', () => {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.input.yaml'))) {
    const docs = yaml.loadAll(readFileSync(join(dir, file), 'utf8')) as { kind: string; metadata: { name: string; labels?: Record<string, string> } }[];
    const pod = docs.find((d) => d.kind === 'Pod') as Pod;
    const sets = docs.filter((d) => d.kind === 'SidecarSet').map((d) => stored(defaultSidecarSet(d as SidecarSet)));
    const namespaces = Object.fromEntries(docs.filter((d) => d.kind === 'Namespace').map((d) => [d.metadata.name, d.metadata.labels ?? {}]));
    const revisionList = docs.filter((d) => d.kind === 'ControllerRevision') as unknown as ControllerRevisionLike[];
    agree(() => structuredClone(pod), sets, { namespaces, revisionList });
  }
});
